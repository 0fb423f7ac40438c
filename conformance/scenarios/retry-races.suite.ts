import { describe } from 'vitest';
import { checks } from '../checks/index.js';
import { documentOf, idsOf, uploaded } from '../kit/api.js';
import { show } from '../kit/failure.js';
import { fixture, part, randomWord, textPdf } from '../kit/files.js';
import { type Race, releaseTogether } from '../kit/race/release.js';
import { describeResponse } from '../kit/response-checks.js';
import { once, openSuite } from '../kit/suite.js';
import { waitForAll } from '../kit/wait.js';

const kit = await openSuite('retry', 'retry-races');
const { retry, races, upload } = checks;
const pdf = await textPdf(['docproc conformance', `Race word ${randomWord()}`]);
// Enough that a server which checks the status and then writes without a lock lets two through.
const TOGETHER = 4;

/** One document that completes and one that fails, both finished. */
const finished = once(async () => {
  const exchanges = await kit.uploadInBatches([
    part(`${kit.token('race')}-text.pdf`, pdf),
    part(`${kit.token('race')}-damaged.pdf`, fixture('corrupt.pdf')),
  ]);
  for (const exchange of exchanges) kit.expectStatus(upload.accepted, exchange, 202, 'valid files');
  return waitForAll(kit.api, idsOf(exchanges.flatMap(uploaded)), kit.config.timeoutMs);
});

const retries = (id: number) => Array.from({ length: TOGETHER }, () => ({ operation: 'retryDocument', params: { document_id: id } }));
const codeOf = (race: Race, i: number) => (race.exchanges[i]?.json as { code?: unknown } | undefined)?.code;
const busy = (race: Race) => race.exchanges.filter((e, i) => e.status === 409 && codeOf(race, i) === 'document_busy');
const answers = (race: Race) => show(race.exchanges.map((e, i) => `${e.status}${codeOf(race, i) ? ` ${codeOf(race, i)}` : ''}`));

describe('retries released together', () => {
  for (const outcome of ['completed', 'failed'] as const) {
    kit.scenario(
      `${TOGETHER} retries of a ${outcome} document at once: exactly one starts a run, the others are 409 document_busy`,
      { profile: 'full', checks: [races.retryFinished] },
      async (tools) => {
        const before = (await finished()).find((d) => d.status === outcome);
        if (!before) return tools.notExercised(`no seed document ended ${outcome} (see lifecycle checks)`);
        const race = await releaseTogether(kit.http, retries(before.document_id), kit.config.requestTimeoutMs);
        const accepted = race.exchanges.filter((e) => e.status === 202);
        race.verify(races.retryFinished, accepted.length === 1 && busy(race).length === TOGETHER - 1, () => ({
          received: answers(race),
          documented: `one 202 and ${TOGETHER - 1} x 409 document_busy: the first retry to arrive starts a run, which is in progress for the others`,
          exchange: accepted[1] ?? race.exchanges.find((e) => e.status !== 409) ?? race.exchanges[0]!,
        }));
        const read = await kit.api.get(before.document_id);
        race.verify(races.retryFinished, read.status === 200 && documentOf(read).attempts === before.attempts + 1, () => ({
          received: `after the race: ${describeResponse(read)}`,
          documented: `attempts ${before.attempts + 1}: one run started`,
          exchange: read,
        }));
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
      // A fresh upload is processing, so every retry should be a 409; if its run ended just before, the
      // first retry to arrive starts a new one and the others are still 409s. Two 202s are never right.
      const accepted = race.exchanges.filter((e) => e.status === 202);
      race.verify(retry.conflictWhileProcessing, accepted.length <= 1 && busy(race).length === TOGETHER - accepted.length, () => ({
        received: answers(race),
        documented: 'every retry 409 document_busy while the run goes on (at most one 202, if the run had just ended)',
        exchange: accepted[1] ?? race.exchanges.find((e) => e.status !== 409) ?? race.exchanges[0]!,
      }));
      const read = await kit.api.get(doc.document_id);
      race.verify(retry.conflictWhileProcessing, read.status === 200 && documentOf(read).attempts === 1 + accepted.length, () => ({
        received: `after the race: ${describeResponse(read)}`,
        documented: `attempts ${1 + accepted.length}: ${accepted.length} run(s) started by the race`,
        exchange: read,
      }));
    },
  );
});
