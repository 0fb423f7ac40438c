import { checks } from '../checks/index.js';
import { type RaceAnswer, RETRY_RACES, retryRaceOutcome } from '../checks/races.js';
import { describeResponse } from '../definitions/describe.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { fixture, part, randomWord, textPdf } from '../inputs/sample-files.js';
import { type Race, releaseTogether } from '../judging/race.js';
import { waitForAll, waitForTerminal } from '../judging/wait.js';
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

/**
 * Races `next()`'s retries, again while a race's answers prove nothing (more than one 202: see
 * retryRaceOutcome), up to RETRY_RACES times; `next` readies the document for each race.
 */
async function raceRetries(next: (race: number) => Promise<number>): Promise<{ raced: Race[]; tries: RaceAnswer[][]; id: number }> {
  const raced: Race[] = [];
  const tries: RaceAnswer[][] = [];
  let id: number;
  do {
    id = await next(raced.length);
    const race = await releaseTogether(kit.http, retries(id), kit.config.requestTimeoutMs);
    raced.push(race);
    tries.push(answersOf(race));
  } while (tries.length < RETRY_RACES && retryRaceOutcome(tries.at(-1)!) === 'apart');
  return { raced, tries, id };
}
const accepted = (race: Race) => race.exchanges.filter((e) => e.status === 202).length;

describe('retries released together', () => {
  for (const outcome of ['completed', 'failed'] as const) {
    kit.scenario(
      `${TOGETHER} retries of a ${outcome} document at once: exactly one starts a run, the others are 409 document_busy`,
      { profile: 'full', checks: [races.retryFinished] },
      async (tools) => {
        const before = (await finished()).find((d) => d.status === outcome);
        if (!before) return tools.notExercised(`no seed document ended ${outcome} (see lifecycle checks)`);
        // A race after the first waits for the runs the last one started to end.
        const { raced, tries } = await raceRetries(async (race) => {
          if (race > 0) await waitForTerminal(kit.api, before.document_id, kit.config.timeoutMs);
          return before.document_id;
        });
        const last = raced.at(-1)!;
        last.check(races.retryFinished, { kind: 'answers', tries }, telling(last));
        const read = await kit.api.get(before.document_id);
        last.check(
          races.retryFinished,
          {
            kind: 'after',
            attempts: read.status === 200 ? documentOf(read).attempts : undefined,
            expected: before.attempts + raced.reduce((sum, race) => sum + accepted(race), 0),
          },
          read,
        );
      },
    );
  }

  kit.scenario(
    `${TOGETHER} retries of a processing document at once: none starts a run while it goes on`,
    { profile: 'full', checks: [retry.conflictWhileProcessing] },
    async () => {
      // Each race on a fresh upload, which is processing.
      const { raced, tries, id } = await raceRetries(async () => {
        const created = await kit.api.upload([part(`${kit.token('race')}-busy.pdf`, pdf)]);
        kit.expectStatus(upload.accepted, created, 202, 'a valid PDF');
        return uploaded(created)[0]!.document_id;
      });
      const last = raced.at(-1)!;
      last.check(retry.conflictWhileProcessing, { tries }, telling(last));
      const read = await kit.api.get(id);
      last.verify(retry.conflictWhileProcessing, read.status === 200 && documentOf(read).attempts === 1 + accepted(last), () => ({
        received: `after the race: ${describeResponse(read)}`,
        expected: `attempts ${1 + accepted(last)}: ${accepted(last)} run(s) started by the race`,
        exchange: read,
      }));
    },
  );
});
