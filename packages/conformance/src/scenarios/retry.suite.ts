import { checks } from '../checks/index.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { partitionCatalog } from '../inputs/partition-catalog.js';
import { rangeValues } from '../inputs/partitions.js';
import { fixture, part, randomWord, textPdf } from '../inputs/sample-files.js';
import { settle, waitForAll, waitForTerminal } from '../judging/wait.js';
import { INVALID_DOCUMENT_IDS } from '../rules/contract-facts.js';
import { documentOf, uploaded, type WireFullDocument } from '../transport/api.js';

const kit = await openSuite('retry');
const { expectStatus, expectProblem, expectNamesParameter } = kit;
const { retry, upload, get } = checks;
const word = randomWord();
const wordPdf = textPdf(['docproc conformance', `Retry word ${word}`]);

async function uploadOne(name: string, data: Uint8Array): Promise<WireFullDocument> {
  const exchange = await kit.api.upload([part(`${kit.token()}-${name}`, data)]);
  expectStatus(upload.accepted, exchange, 202, 'a valid file');
  // A 202 body holds at least one document (the schema says so, and the response checks hold it to that).
  return uploaded(exchange)[0]!;
}

/** One document that completes and one that fails, both finished. */
const finished = once(async () => {
  const exchanges = await kit.uploadInBatches([
    part(`${kit.token()}-text.pdf`, wordPdf),
    part(`${kit.token()}-damaged.pdf`, fixture('corrupt.pdf')),
  ]);
  for (const exchange of exchanges) expectStatus(upload.accepted, exchange, 202, 'valid files');
  return waitForAll(kit.api, exchanges.flatMap(uploaded), kit.config.timeoutMs);
});

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
        kit.check(retry.restartsProcessing, { before, after: documentOf(exchange) }, exchange);
        await waitForTerminal(kit.api, before.document_id, kit.config.timeoutMs, before);
        const read = await kit.api.get(before.document_id);
        expectStatus(get.returnsDocument, read, 200, `document ${before.document_id} exists`);
        kit.check(retry.finishesAgain, { before, again: documentOf(read), word }, read);
      },
    );
  }

  kit.scenario('an id that does not exist is a 404 not_found', { profile: 'full', checks: [retry.unknownId] }, async () => {
    expectProblem(retry.unknownId, await kit.api.retry(Number.MAX_SAFE_INTEGER), 404, 'not_found', 'no document has this id');
  });

  // The least id the contract allows is usually taken, by this run or another: it is retried only under a key
  // that cannot read it, so the retry changes nothing of anyone's.
  kit.scenario(
    'the least id the contract allows, under a key that cannot read it, is a 404 not_found',
    { profile: 'full', checks: [retry.unknownId] },
    async (tools) => {
      const least = rangeValues(partitionCatalog(kit.contract).scalar('retryDocument', 'path document_id')).min;
      if (least === undefined) return tools.notExercised('the contract states no minimum document_id');
      const keys = kit.config.secondApiKey === undefined ? [kit.api] : [kit.api, kit.as('secondary')];
      for (const api of keys) {
        if ((await api.get(least)).status !== 404) continue;
        const exchange = await api.retry(least);
        // Created under this key between the read and the retry (this run's first upload on an empty service).
        if (exchange.status !== 404 && (await api.get(least)).status !== 404)
          return tools.notExercised(`document ${least} was created under the key while it was being retried`);
        return expectProblem(retry.unknownId, exchange, 404, 'not_found', `the key cannot read document ${least}`);
      }
      tools.notExercised(`every key of the run reads document ${least}; retrying it would change a document`);
    },
  );
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
