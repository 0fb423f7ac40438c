import { checks } from '../checks/index.js';
import type { KeyChoice } from '../definitions/exchange.js';
import { describe, openSuite } from '../harness/suite.js';
import { part, textPdf } from '../inputs/sample-files.js';
import { releaseTogether } from '../judging/race.js';
import { documentOf, idsOf, listed, problemCode, uploaded } from '../transport/api.js';

const kit = await openSuite('upload', 'upload-races');
const { races } = checks;
const pdf = textPdf(['docproc conformance', 'upload race']);
const TOGETHER = 4;

describe('uploads released together', () => {
  kit.scenario(
    `${TOGETHER} uploads of the same file under one Idempotency-Key at once make one set of documents`,
    { profile: 'full', checks: [races.sameKey] },
    async () => {
      const t = kit.token('race-key');
      const request = {
        operation: 'uploadDocuments',
        headers: { 'Idempotency-Key': `${t}-key` },
        body: { kind: 'files' as const, parts: [part(`${t}.pdf`, pdf)] },
      };
      const race = await releaseTogether(
        kit.http,
        Array.from({ length: TOGETHER }, () => request),
        kit.config.requestTimeoutMs,
        // A turned-away upload sent again alone replays the key's documents or is a 409 in use: the same verdict.
        { turnedAway: 'resend' },
      );
      const answers = race.exchanges.map((e) => ({ status: e.status, code: problemCode(e), ids: idsOf(uploaded(e)) }));
      const accepted = race.exchanges.filter((e) => e.status === 202);
      race.check(
        races.sameKey,
        { kind: 'answers', answers },
        accepted[1] ?? race.exchanges.find((e) => e.status !== 202) ?? race.exchanges[0],
      );
      const search = await kit.api.list({ search: t, limit: kit.facts.maxLimit });
      const ids = search.status === 200 ? idsOf(listed(search).documents) : [];
      race.check(races.sameKey, { kind: 'stored', token: t, ids, made: idsOf(uploaded(accepted[0]!)) }, search);
    },
  );

  kit.scenario(
    `${TOGETHER} uploads without a key at once${kit.config.secondApiKey !== undefined ? ', by both tenants,' : ''} each get ids of their own`,
    { profile: 'full', checks: [races.distinctIds] },
    async () => {
      const t = kit.token('race-ids');
      const keys: KeyChoice[] = Array.from({ length: TOGETHER }, (_, i) =>
        i % 2 && kit.config.secondApiKey !== undefined ? 'secondary' : 'primary',
      );
      const names = keys.map((_, i) => `${t}-${i + 1}.pdf`);
      const race = await releaseTogether(
        kit.http,
        keys.map((key, i) => ({ operation: 'uploadDocuments', key, body: { kind: 'files' as const, parts: [part(names[i]!, pdf)] } })),
        kit.config.requestTimeoutMs,
        // A turned-away upload sent again alone still makes documents of its own, which must get new ids.
        { turnedAway: 'resend' },
      );
      const refused = race.exchanges.find((e) => e.status !== 202);
      kit.require(races.distinctIds, refused === undefined, () => ({
        received: race.exchanges.map((e) => e.status).join(', '),
        expected: `${TOGETHER} x 202 (valid uploads)`,
        exchange: refused!,
      }));
      const ids = race.exchanges.flatMap((e) => idsOf(uploaded(e)));
      const repeated = ids.findIndex((id, i) => ids.indexOf(id) !== i);
      race.check(races.distinctIds, { kind: 'created', ids, names }, race.exchanges[repeated] ?? race.exchanges[0]);
      for (const [i, id] of ids.entries()) {
        const read = await kit.as(keys[i]!).get(id);
        const filename = read.status === 200 ? documentOf(read).filename : undefined;
        race.check(races.distinctIds, { kind: 'read-back', id, status: read.status, filename, name: names[i]! }, read);
      }
    },
  );
});
