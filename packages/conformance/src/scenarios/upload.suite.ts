import { checks } from '../checks/index.js';
import type { FilePart } from '../definitions/exchange.js';
import { expectNothingCreated } from '../harness/absence.js';
import { describe, openSuite } from '../harness/suite.js';
import { asPdf20, fixture, part, pdfOfSize, textPdf, truncatedExifJpeg, truncatedJpeg } from '../inputs/sample-files.js';
import { problemCode, uploaded } from '../transport/api.js';
import { buildMultipart } from '../transport/multipart.js';

const kit = await openSuite('upload');
const { expectStatus, expectProblem, expectNamesParameter } = kit;
const { upload } = checks;
const field = kit.facts.fileField;
const pdf = textPdf(['docproc conformance', kit.token()]);
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
      kit.check(
        upload.onePerPart,
        { status: exchange.status, sent: parts.map((p) => p.filename), documents: uploaded(exchange) },
        exchange,
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
        { part: part(`${t}-exif-no-jfif.jpg`, truncatedExifJpeg(), 'image/jpeg'), type: 'image/jpeg' },
        { part: part(`${t}-version-2.0.pdf`, asPdf20(pdf)), type: 'application/pdf' },
      ];
      // Uploads below the files limit: what a request of exactly the limit gets is upload.files-at-limit's to judge.
      const size = Math.max(1, kit.limits.maxFiles - 1);
      for (let start = 0; start < cases.length; start += size) {
        const batch = cases.slice(start, start + size);
        const exchange = await kit.api.upload(batch.map((c) => c.part));
        const docs = uploaded(exchange);
        batch.forEach((c, j) => {
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
          kit.check(upload.echoesFields, { part: start + j + 1, want, doc: docs[j] }, exchange);
        });
      }
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
      kit.check(upload.extendedFilename, { status: exchange.status, sent: name, got: uploaded(exchange)[0]?.filename }, exchange);
    },
  );
});

describe('uploadDocuments keeps filenames as data', () => {
  kit.scenario(
    'filenames with /, \\, .. and spaces at either end come back exactly as sent',
    { profile: 'full', checks: [upload.filenameVerbatim] },
    async () => {
      const t = kit.token('path');
      // A backslash inside a quoted filename could be read as an escape, so that name travels as filename*.
      const cases = [
        { name: `${t}/reports/2024/q1.pdf`, raw: false },
        { name: `../../${t}-etc-passwd.pdf`, raw: false },
        { name: `C:\\Users\\${t}\\scan.pdf`, raw: true },
        // Inside the quotes, spaces at either end are part of the name: nothing trims it.
        { name: `  ${t}-edges.pdf `, raw: false },
      ];
      for (const c of cases) {
        const exchange = c.raw
          ? await kit.api.uploadRaw(
              ...rawUpload([{ field, filename: `${t}-fallback.pdf`, filenameStar: c.name, contentType: 'application/pdf', data: pdf }]),
            )
          : await kit.api.upload([part(c.name, pdf)]);
        kit.check(upload.filenameVerbatim, { status: exchange.status, sent: c.name, got: uploaded(exchange)[0]?.filename }, exchange);
      }
    },
  );
});

describe('uploadDocuments reads quoted filenames as quoted-strings', () => {
  // A quote or a backslash inside `filename="..."` travels as a quoted-pair (RFC 2045's quoted-string, which
  // RFC 7578 parameters are), as curl --form-escape and MIME libraries send it; browsers send %22 instead.
  // Stacks read the pair (busboy, Go, Werkzeug) or keep it as sent, and the contract takes either as "as sent".
  kit.scenario(
    'a quoted filename holding \\" and \\\\ is read or kept, never cut',
    { profile: 'full', checks: [upload.filenameQuotedPair] },
    async () => {
      const t = kit.token('quoted-pair');
      const cases = [
        { wire: `${t}-say \\"hi\\".pdf`, read: `${t}-say "hi".pdf` },
        { wire: `${t}-back\\\\slash.pdf`, read: `${t}-back\\slash.pdf` },
        // The pair right before the closing quote: a parser that takes `\"` for an escaped quote there never finds the end.
        { wire: `${t}-ends-in\\\\`, read: `${t}-ends-in\\` },
      ];
      for (const c of cases) {
        const exchange = await kit.api.uploadRaw(
          ...rawUpload([{ field, quotedFilename: c.wire, contentType: 'application/pdf', data: pdf }]),
        );
        kit.check(
          upload.filenameQuotedPair,
          { status: exchange.status, readings: [c.read, c.wire], got: uploaded(exchange)[0]?.filename },
          exchange,
        );
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

  // The neighbours of the contract's field name a client library really sends: the name without its
  // brackets (form serialisers), with an index, in capitals. Multipart names are compared exactly.
  const neighbours = [field.replace(/\[\]$/, ''), field.replace(/\[\]$/, '[0]'), field.toUpperCase()];
  for (const [i, name] of [...new Set(neighbours.filter((n) => n !== field))].entries()) {
    kit.scenario(
      `a file under the field name "${name}" is a 400 naming it`,
      { profile: 'full', checks: [upload.wrongField] },
      async (tools) => {
        const t = kit.token(`neighbour-${i}`);
        const exchange = await kit.api.upload([part(`${t}.pdf`, pdf, 'application/pdf', name)]);
        expectStatus(upload.wrongField, exchange, 400, `files go under "${field}", not "${name}"`);
        expectNamesParameter(exchange, { in: 'body', name });
        await expectNothingCreated(kit, tools, upload.wrongField, t, pdf);
      },
    );
  }

  const unsupported = [
    { label: 'a text file', part: part(`${kit.token('text')}-notes.txt`, fixture('not-a-document.txt'), 'text/plain') },
    {
      label: 'a text file named .png and sent as image/png',
      part: part(`${kit.token('text')}-notes.png`, fixture('text-named.png'), 'image/png'),
    },
  ];
  for (const c of unsupported) {
    kit.scenario(`${c.label} is a 415 naming it`, { profile: 'full', checks: [upload.unsupportedType] }, async () => {
      const exchange = await kit.api.upload([c.part]);
      const body = (typeof exchange.json === 'object' && exchange.json !== null ? exchange.json : {}) as { detail?: unknown };
      kit.check(
        upload.unsupportedType,
        { exchange, filename: c.part.filename, code: problemCode(exchange), detail: body.detail },
        exchange,
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

  const { maxFiles, maxFileBytes, filesText, bytesText } = kit.limits;
  kit.scenario(
    'one file more than the file limit is a 413 that stores nothing',
    { profile: 'full', checks: [upload.tooManyFiles] },
    async (tools) => {
      if (!Number.isFinite(maxFiles)) return tools.notExercised("pass --max-files N (the deployment's limit): the contract documents none");
      const t = kit.token('many');
      const parts = Array.from({ length: maxFiles + 1 }, (_, i) => part(`${t}-${i + 1}.pdf`, pdf));
      expectProblem(
        upload.tooManyFiles,
        await kit.api.upload(parts, { beyondLimits: true }),
        413,
        'too_many_files',
        `${maxFiles + 1} files; ${filesText}`,
      );
      await expectNothingCreated(kit, tools, upload.tooManyFiles, t, pdf);
    },
  );

  kit.scenario('exactly the file limit is accepted', { profile: 'full', checks: [upload.filesAtLimit] }, async (tools) => {
    if (!Number.isFinite(maxFiles)) return tools.notExercised("pass --max-files N (the deployment's limit): the contract documents none");
    const t = kit.token('at-max-files');
    const exchange = await kit.api.upload(Array.from({ length: maxFiles }, (_, i) => part(`${t}-${i + 1}.pdf`, pdf)));
    kit.check(upload.filesAtLimit, { exchange, max: maxFiles, source: filesText }, exchange);
  });

  kit.scenario('a file of exactly the size limit is accepted', { profile: 'full', checks: [upload.fileAtLimit] }, async (tools) => {
    if (!Number.isFinite(maxFileBytes))
      return tools.notExercised("pass --max-file-bytes N (the deployment's limit): the contract documents none");
    const exchange = await kit.api.upload([part(`${kit.token('at-max-bytes')}.pdf`, pdfOfSize(maxFileBytes))]);
    expectStatus(upload.fileAtLimit, exchange, 202, `a file of ${maxFileBytes} bytes; ${bytesText}`);
  });

  kit.scenario(
    'a file one byte over the size limit is a 413 that stores nothing',
    { profile: 'full', checks: [upload.fileTooLarge] },
    async (tools) => {
      if (!Number.isFinite(maxFileBytes))
        return tools.notExercised("pass --max-file-bytes N (the deployment's limit): the contract documents none");
      const t = kit.token('large');
      // A small file beside the large one proves the whole upload is refused (when two files fit in one).
      const large = part(`${t}-large.pdf`, pdfOfSize(maxFileBytes + 1));
      const exchange = await kit.api.upload(maxFiles > 1 ? [part(`${t}-small.pdf`, pdf), large] : [large], { beyondLimits: true });
      expectProblem(upload.fileTooLarge, exchange, 413, 'file_too_large', `a file of ${maxFileBytes + 1} bytes; ${bytesText}`);
      await expectNothingCreated(kit, tools, upload.fileTooLarge, t, pdf);
    },
  );
});
