import { checks } from '../checks/index.js';
import type { RaceAnswer } from '../checks/races.js';
import { describeResponse } from '../definitions/describe.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { fixture, part, randomWord, textPdf } from '../inputs/sample-files.js';
import { type Race, releaseTogether } from '../judging/race.js';
import { waitForAll } from '../judging/wait.js';
import { documentOf, problemCode, uploaded } from '../transport/api.js';

const kit = await openSuite('retry', 'retry-races');
const { retry, races, upload } = checks;
const pdf = textPdf(['docproc conformance', `Race word ${randomWord()}`]);
// Enough that a server which checks the status and then writes without a lock lets two through.
const TOGETHER = 4;

/** One document that completes and one that fails, both finished. */
const finished = once(async () => {
  const exchanges = await kit.uploadInBatches([
    part(`${kit.token('race')}-text.pdf`, pdf),
    part(`${kit.token('race')}-damaged.pdf`, fixture('corrupt.pdf')),
  ]);
  for (const exchange of exchanges) kit.expectStatus(upload.accepted, exchange, 202, 'valid files');
  return waitForAll(kit.api, exchanges.flatMap(uploaded), kit.config.timeoutMs);
});

const retries = (id: number) => Array.from({ length: TOGETHER }, () => ({ operation: 'retryDocument', params: { document_id: id } }));
const answersOf = (race: Race): Array<RaceAnswer & { code: unknown }> =>
  race.exchanges.map((e) => ({ status: e.status, code: problemCode(e) }));
/** The answer that shows a failure best: a second 202, else anything but a 409. */
const telling = (race: Race) =>
  race.exchanges.filter((e) => e.status === 202)[1] ?? race.exchanges.find((e) => e.status !== 409) ?? race.exchanges[0];

describe('retries released together', () => {
  for (const outcome of ['completed', 'failed'] as const) {
    kit.scenario(
      `${TOGETHER} retries of a ${outcome} document at once: exactly one starts a run, the others are 409 document_busy`,
      { profile: 'full', checks: [races.retryFinished] },
      async (tools) => {
        const before = (await finished()).find((d) => d.status === outcome);
        if (!before) return tools.notExercised(`no seed document ended ${outcome} (see lifecycle checks)`);
        const race = await releaseTogether(kit.http, retries(before.document_id), kit.config.requestTimeoutMs);
        race.check(races.retryFinished, { kind: 'answers', answers: answersOf(race) }, telling(race));
        const read = await kit.api.get(before.document_id);
        race.check(
          races.retryFinished,
          { kind: 'after', attempts: read.status === 200 ? documentOf(read).attempts : undefined, before: before.attempts },
          read,
        );
      },
    );
  }

  kit.scenario(
    `${TOGETHER} retries of a processing document at once: none starts a run while it goes on`,
    { profile: 'full', checks: [retry.conflictWhileProcessing] },
    async () => {
      const created = await kit.api.upload([part(`${kit.token('race')}-busy.pdf`, pdf)]);
      kit.expectStatus(upload.accepted, created, 202, 'a valid PDF');
      const doc = uploaded(created)[0]!;
      const race = await releaseTogether(kit.http, retries(doc.document_id), kit.config.requestTimeoutMs);
      race.check(retry.conflictWhileProcessing, { answers: answersOf(race) }, telling(race));
      const accepted = race.exchanges.filter((e) => e.status === 202).length;
      const read = await kit.api.get(doc.document_id);
      race.verify(retry.conflictWhileProcessing, read.status === 200 && documentOf(read).attempts === 1 + accepted, () => ({
        received: `after the race: ${describeResponse(read)}`,
        expected: `attempts ${1 + accepted}: ${accepted} run(s) started by the race`,
        exchange: read,
      }));
    },
  );
});
