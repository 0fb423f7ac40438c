import { describe } from 'vitest';
import { checks } from '../checks/index.js';
import { expectNothingCreated } from '../kit/absence.js';
import { uploaded } from '../kit/api.js';
import { describeResponse, show } from '../kit/describe.js';
import type { FilePart } from '../kit/exchange.js';
import { fixture, part, pdfOfSize, textPdf, truncatedJpeg } from '../kit/files.js';
import { buildMultipart } from '../kit/multipart.js';
import { openSuite } from '../kit/suite.js';

const kit = await openSuite('upload');
const { verify, expectStatus, expectProblem, expectNamesParameter } = kit;
const { upload } = checks;
const field = kit.facts.fileField;
const pdf = await textPdf(['docproc conformance', kit.token()]);
const png = fixture('truncated.png');
const encoder = new TextEncoder();
const rawUpload = (parts: Parameters<typeof buildMultipart>[0]): [Uint8Array, string] => {
  const { body, contentType } = buildMultipart(parts);
  return [body, contentType];
};

describe('uploadDocuments accepts files', () => {
  kit.scenario('a valid one-file upload is a 202', { profile: 'contract', checks: [upload.accepted] }, async () => {
    expectStatus(
      upload.accepted,
      await kit.api.upload([part(`${kit.token('single')}.pdf`, pdf, 'application/pdf', field)]),
      202,
      'a valid PDF',
    );
  });

  kit.scenario(
    'several files in one request come back one per part, in part order',
    { profile: 'full', checks: [upload.onePerPart] },
    async (tools) => {
      const t = kit.token('order');
      const all = [part(`${t}-1-first.pdf`, pdf), part(`${t}-2-second.png`, png, 'image/png'), part(`${t}-3-third.pdf`, pdf)];
      if (kit.limits.maxFiles < 2) return tools.notExercised(`needs 2 files in one upload; ${kit.limits.filesText}`);
      const parts = all.slice(0, kit.limits.maxFiles);
      const exchange = await kit.api.upload(parts);
      const docs = uploaded(exchange);
      verify(
        upload.onePerPart,
        docs.length === parts.length && docs.every((d, i) => d.filename === parts[i]!.filename && d.status === 'processing'),
        () => ({
          received: `${exchange.status}: ${show(docs.map((d) => [d.filename, d.status]))}`,
          expected: `202 with ${show(parts.map((p) => [p.filename, 'processing']))}`,
          exchange,
        }),
      );
    },
  );

  kit.scenario(
    'each document echoes its part: exact filename, size, and the type its bytes say',
    { profile: 'full', checks: [upload.echoesFields] },
    async () => {
      const t = kit.token('echo');
      const cases: Array<{ part: FilePart; type: string }> = [
        { part: part(`${t}-Überweisung résumé 東京 ✓.pdf`, pdf), type: 'application/pdf' },
        { part: part(`${t}-a-pdf-named.png`, pdf, 'image/png'), type: 'application/pdf' },
        { part: part(`${t}-a-png-named.pdf`, png, 'application/pdf'), type: 'image/png' },
        { part: part(`${t}-a-jpeg-named.bin`, truncatedJpeg(), 'application/octet-stream'), type: 'image/jpeg' },
      ];
      const exchanges = await kit.uploadInBatches(cases.map((c) => c.part));
      const docs = exchanges.flatMap(uploaded);
      cases.forEach((c, i) => {
        const doc = docs[i];
        const exchange = exchanges[Math.floor(i / kit.limits.maxFiles)]!;
        const want = {
          filename: c.part.filename,
          size_bytes: c.part.data.length,
          content_type: c.type,
          status: 'processing',
          attempts: 1,
          content: null,
          error: null,
          processed_at: null,
        };
        const got = doc && Object.fromEntries(Object.keys(want).map((k) => [k, (doc as Record<string, unknown>)[k]]));
        verify(upload.echoesFields, JSON.stringify(got) === JSON.stringify(want), () => ({
          received: `part ${i + 1}: ${show(got ?? null)}`,
          expected: `part ${i + 1}: ${show(want)}`,
          exchange,
        }));
      });
    },
  );

  kit.scenario(
    "a filename sent as filename*=UTF-8'' is stored decoded",
    { profile: 'full', checks: [upload.extendedFilename] },
    async () => {
      const name = `${kit.token('rfc5987')}-Grüße aus Köln ✓.pdf`;
      const { body, contentType } = buildMultipart([
        { field, filename: 'fallback.pdf', filenameStar: name, contentType: 'application/pdf', data: pdf },
      ]);
      const exchange = await kit.api.uploadRaw(body, contentType);
      const got = uploaded(exchange)[0]?.filename;
      verify(upload.extendedFilename, got === name, () => ({
        received: `${exchange.status}: filename ${show(got ?? null)}`,
        expected: `202: filename ${show(name)}`,
        exchange,
      }));
    },
  );
});

describe('uploadDocuments keeps filenames as data', () => {
  kit.scenario(
    'filenames with /, \\ and .. come back exactly as sent',
    { profile: 'full', checks: [upload.filenameVerbatim] },
    async () => {
      const t = kit.token('path');
      // A backslash inside a quoted filename could be read as an escape, so that name travels as filename*.
      const cases = [
        { name: `${t}/reports/2024/q1.pdf`, raw: false },
        { name: `../../${t}-etc-passwd.pdf`, raw: false },
        { name: `C:\\Users\\${t}\\scan.pdf`, raw: true },
      ];
      for (const c of cases) {
        const exchange = c.raw
          ? await kit.api.uploadRaw(
              ...rawUpload([{ field, filename: `${t}-fallback.pdf`, filenameStar: c.name, contentType: 'application/pdf', data: pdf }]),
            )
          : await kit.api.upload([part(c.name, pdf)]);
        const got = uploaded(exchange)[0]?.filename;
        verify(upload.filenameVerbatim, got === c.name, () => ({
          received: `${exchange.status}: filename ${show(got ?? null)}`,
          expected: `202: filename ${show(c.name)}`,
          exchange,
        }));
      }
    },
  );
});

describe('uploadDocuments rejects what it cannot store', () => {
  const empty = [
    { label: 'an empty multipart body', data: encoder.encode('--b--\r\n'), type: 'multipart/form-data; boundary=b' as string | undefined },
    { label: 'no body at all', data: new Uint8Array(0), type: undefined },
  ];
  for (const { label, data, type } of empty) {
    kit.scenario(`${label} is a 400`, { profile: 'contract', checks: [upload.noFiles] }, async () => {
      const exchange = await kit.api.uploadRaw(data, type);
      expectStatus(upload.noFiles, exchange, 400, `no ${field} part`);
      // The contract lets a body-less upload name the missing part or the missing multipart Content-Type.
      const readings =
        type === undefined
          ? [
              { in: 'body', name: field },
              { in: 'header', name: 'Content-Type' },
            ]
          : [{ in: 'body', name: field }];
      if (kit.profile === 'full') expectNamesParameter(exchange, ...readings);
    });
  }

  kit.scenario('a file under the field name "file" is a 400', { profile: 'contract', checks: [upload.wrongField] }, async () => {
    const exchange = await kit.api.upload([part(`${kit.token('field')}.pdf`, pdf, 'application/pdf', 'file')]);
    expectStatus(upload.wrongField, exchange, 400, `files go under "${field}"`);
    if (kit.profile === 'full') expectNamesParameter(exchange, { in: 'body', name: 'file' });
  });

  kit.scenario(
    'a "file" part beside a good one is a 400 that stores nothing, not silently ignored',
    { profile: 'full', checks: [upload.wrongField] },
    async (tools) => {
      const t = kit.token('typo');
      const exchange = await kit.api.upload([part(`${t}-good.pdf`, pdf), part(`${t}-typo.pdf`, pdf, 'application/pdf', 'file')]);
      expectStatus(upload.wrongField, exchange, 400, 'a part under another name than files[]');
      expectNamesParameter(exchange, { in: 'body', name: 'file' });
      await expectNothingCreated(kit, tools, upload.wrongField, t, pdf);
    },
  );

  const unsupported = [
    { label: 'a text file', part: part(`${kit.token('text')}-notes.txt`, fixture('not-a-document.txt'), 'text/plain') },
    {
      label: 'a text file named .png and sent as image/png',
      part: part(`${kit.token('text')}-notes.png`, fixture('text-named.png'), 'image/png'),
    },
  ];
  for (const c of unsupported) {
    kit.scenario(`${c.label} is a 415`, { profile: 'full', checks: [upload.unsupportedType] }, async () => {
      expectProblem(
        upload.unsupportedType,
        await kit.api.upload([c.part]),
        415,
        'unsupported_media_type',
        'not a PDF, JPEG or PNG by its bytes',
      );
    });
  }

  kit.scenario(
    'good files with one bad one are a 415 that stores nothing',
    { profile: 'full', checks: [upload.allOrNothing] },
    async (tools) => {
      const t = kit.token('atomic');
      if (kit.limits.maxFiles < 2) return tools.notExercised(`needs a good and a bad file in one upload; ${kit.limits.filesText}`);
      const all = [
        part(`${t}-1-good.pdf`, pdf),
        part(`${t}-2-good.png`, png, 'image/png'),
        part(`${t}-3-bad.png`, fixture('text-named.png'), 'image/png'),
        part(`${t}-4-good.pdf`, pdf),
      ];
      // The bad part goes last within the limit, after every good one that fits.
      const parts = [...all.filter((p) => !p.filename.endsWith('bad.png')).slice(0, Math.min(3, kit.limits.maxFiles - 1)), all[2]!];
      expectProblem(upload.allOrNothing, await kit.api.upload(parts), 415, 'unsupported_media_type', `part ${parts.length} is text`);
      await expectNothingCreated(kit, tools, upload.allOrNothing, t, pdf);
    },
  );

  kit.scenario(
    'more files than --max-files is a 413 that stores nothing',
    { profile: 'full', checks: [upload.tooManyFiles] },
    async (tools) => {
      const max = kit.config.maxFiles;
      if (max === undefined) return tools.notExercised("pass --max-files N (the deployment's limit) to exercise it");
      const t = kit.token('many');
      const parts = Array.from({ length: max + 1 }, (_, i) => part(`${t}-${i + 1}.pdf`, pdf));
      expectProblem(
        upload.tooManyFiles,
        await kit.api.upload(parts, { beyondLimits: true }),
        413,
        'too_many_files',
        `${max + 1} files with --max-files ${max}`,
      );
      await expectNothingCreated(kit, tools, upload.tooManyFiles, t, pdf);
    },
  );

  kit.scenario('exactly --max-files files are accepted', { profile: 'full', checks: [upload.filesAtLimit] }, async (tools) => {
    const max = kit.config.maxFiles;
    if (max === undefined) return tools.notExercised("pass --max-files N (the deployment's limit) to exercise it");
    const t = kit.token('at-max-files');
    const exchange = await kit.api.upload(Array.from({ length: max }, (_, i) => part(`${t}-${i + 1}.pdf`, pdf)));
    verify(upload.filesAtLimit, exchange.status === 202 && uploaded(exchange).length === max, () => ({
      received: describeResponse(exchange),
      expected: `202 with ${max} documents (${max} files with --max-files ${max})`,
      exchange,
    }));
  });

  kit.scenario('a file of exactly --max-file-bytes is accepted', { profile: 'full', checks: [upload.fileAtLimit] }, async (tools) => {
    const max = kit.config.maxFileBytes;
    if (max === undefined) return tools.notExercised("pass --max-file-bytes N (the deployment's limit) to exercise it");
    const exchange = await kit.api.upload([part(`${kit.token('at-max-bytes')}.pdf`, pdfOfSize(max))]);
    expectStatus(upload.fileAtLimit, exchange, 202, `a file of ${max} bytes with --max-file-bytes ${max}`);
  });

  kit.scenario(
    'a file over --max-file-bytes is a 413 that stores nothing',
    { profile: 'full', checks: [upload.fileTooLarge] },
    async (tools) => {
      const max = kit.config.maxFileBytes;
      if (max === undefined) return tools.notExercised("pass --max-file-bytes N (the deployment's limit) to exercise it");
      const t = kit.token('large');
      // A small file beside the large one proves the whole upload is refused (when two files fit in one).
      const large = part(`${t}-large.pdf`, pdfOfSize(max + 1));
      const exchange = await kit.api.upload(kit.limits.maxFiles > 1 ? [part(`${t}-small.pdf`, pdf), large] : [large], {
        beyondLimits: true,
      });
      expectProblem(upload.fileTooLarge, exchange, 413, 'file_too_large', `a file of ${max + 1} bytes with --max-file-bytes ${max}`);
      await expectNothingCreated(kit, tools, upload.fileTooLarge, t, pdf);
    },
  );
});
