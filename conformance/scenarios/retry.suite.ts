import { describe } from 'vitest';
import { checks } from '../checks/index.js';
import { documentOf, idsOf, uploaded, type WireFullDocument } from '../kit/api.js';
import { INVALID_DOCUMENT_IDS } from '../kit/contract-facts.js';
import { show } from '../kit/describe.js';
import { fixture, part, randomWord, textPdf } from '../kit/files.js';
import { once, openSuite } from '../kit/suite.js';
import { settle, waitForAll, waitForTerminal } from '../kit/wait.js';

const kit = await openSuite('retry');
const { verify, expectStatus, expectProblem, expectNamesParameter } = kit;
const { retry, upload } = checks;
const word = randomWord();
const wordPdf = await textPdf(['docproc conformance', `Retry word ${word}`]);
const SIMULTANEOUS = 3;

async function uploadOne(name: string, data: Uint8Array): Promise<WireFullDocument> {
  const exchange = await kit.api.upload([part(`${kit.token()}-${name}`, data)]);
  expectStatus(upload.accepted, exchange, 202, 'a valid file');
  return uploaded(exchange)[0]!;
}

/** One document that completes and one that fails, both finished. */
const finished = once(async () => {
  const exchanges = await kit.uploadInBatches([
    part(`${kit.token()}-text.pdf`, wordPdf),
    part(`${kit.token()}-damaged.pdf`, fixture('corrupt.pdf')),
  ]);
  for (const exchange of exchanges) expectStatus(upload.accepted, exchange, 202, 'valid files');
  return waitForAll(kit.api, idsOf(exchanges.flatMap(uploaded)), kit.config.timeoutMs);
});

function restarted(before: WireFullDocument, after: WireFullDocument): boolean {
  const same = (['document_id', 'filename', 'content_type', 'size_bytes', 'created_at'] as const).every((k) => before[k] === after[k]);
  return (
    same &&
    after.status === 'processing' &&
    after.attempts === before.attempts + 1 &&
    after.content === null &&
    after.error === null &&
    after.processed_at === null
  );
}

describe('retryDocument', () => {
  kit.scenario('retrying a document that is not processing is a 202', { profile: 'contract', checks: [retry.accepted] }, async (tools) => {
    const doc = await uploadOne('settle.pdf', wordPdf);
    const { settled } = await settle(kit.api, doc.document_id, kit.config.timeoutMs);
    if (!settled) return tools.notExercised(`document ${doc.document_id} never left processing within --timeout-ms`);
    expectStatus(retry.accepted, await kit.api.retry(doc.document_id), 202, 'the document is not processing');
  });

  for (const outcome of ['completed', 'failed'] as const) {
    kit.scenario(
      `retrying a ${outcome} document restarts processing and ends ${outcome} again`,
      { profile: 'full', checks: [retry.accepted, retry.restartsProcessing, retry.finishesAgain] },
      async (tools) => {
        const before = (await finished()).find((d) => d.status === outcome);
        if (!before) return tools.notExercised(`no seed document ended ${outcome} (see lifecycle checks)`);
        const exchange = await kit.api.retry(before.document_id);
        expectStatus(retry.accepted, exchange, 202, `document ${before.document_id} is ${outcome}`);
        const after = documentOf(exchange);
        verify(retry.restartsProcessing, restarted(before, after), () => ({
          received: show(after, 600),
          expected: `${show({ ...before, status: 'processing', attempts: before.attempts + 1, content: null, error: null, processed_at: null, updated_at: '(any)' }, 600)}`,
          exchange,
        }));
        await waitForTerminal(kit.api, before.document_id, kit.config.timeoutMs);
        const read = await kit.api.get(before.document_id);
        const again = documentOf(read);
        const holds =
          again.status === outcome &&
          again.attempts === before.attempts + 1 &&
          (outcome === 'completed' ? (again.content ?? '').toLowerCase().includes(word) : again.error?.code === before.error?.code);
        verify(retry.finishesAgain, holds, () => ({
          received: show({ status: again.status, attempts: again.attempts, error: again.error, content: again.content }),
          expected: `${outcome} again, attempts ${before.attempts + 1}, ${outcome === 'completed' ? `content with ${JSON.stringify(word)}` : `error ${show(before.error)}`}`,
          exchange: read,
        }));
      },
    );
  }

  kit.scenario(
    `${SIMULTANEOUS} simultaneous retries of a fresh upload: at most one is accepted, the rest are 409 document_busy`,
    { profile: 'full', checks: [retry.conflictWhileProcessing] },
    async () => {
      const doc = await uploadOne('busy.pdf', wordPdf);
      // A fresh upload is processing, so every retry should be a 409; if the run already ended, the first
      // retry to arrive starts a new one and the others must still be 409. Two 202s mean one was accepted
      // while a run was in progress, however fast the server is.
      const answers = await Promise.all(Array.from({ length: SIMULTANEOUS }, () => kit.api.retry(doc.document_id)));
      const accepted = answers.filter((a) => a.status === 202);
      const busy = answers.filter((a) => a.status === 409 && (a.json as { code?: string }).code === 'document_busy');
      verify(retry.conflictWhileProcessing, accepted.length <= 1 && busy.length === SIMULTANEOUS - accepted.length, () => ({
        received: answers.map((a) => `${a.status} ${(a.json as { code?: string } | undefined)?.code ?? ''}`).join(', '),
        expected: `at most one 202, every other one 409 document_busy`,
        exchange: accepted[1] ?? answers.find((a) => a.status !== 409) ?? answers[0]!,
      }));
    },
  );

  kit.scenario('an id that does not exist is a 404 not_found', { profile: 'full', checks: [retry.unknownId] }, async () => {
    expectProblem(retry.unknownId, await kit.api.retry(Number.MAX_SAFE_INTEGER), 404, 'not_found', 'no document has this id');
  });
});

describe('retryDocument validates the id', () => {
  for (const id of INVALID_DOCUMENT_IDS) {
    kit.scenario(`id ${id} is a 400`, { profile: 'contract', checks: [retry.rejectsInvalidId] }, async () => {
      const exchange = await kit.api.retry(id);
      expectStatus(retry.rejectsInvalidId, exchange, 400, 'not a positive integer within 2^53-1');
      if (kit.profile === 'full') expectNamesParameter(exchange, { in: 'path', name: 'document_id' });
    });
  }
});
