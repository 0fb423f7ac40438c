import { describe } from 'vitest';
import { checks } from '../checks/index.js';
import { documentOf, idsOf, listed, uploaded } from '../kit/api.js';
import type { KeyChoice } from '../kit/exchange.js';
import { sameSet, setText } from '../kit/expect.js';
import { show } from '../kit/failure.js';
import { part, textPdf } from '../kit/files.js';
import { releaseTogether } from '../kit/race/release.js';
import { describeResponse } from '../kit/response-checks.js';
import { openSuite } from '../kit/suite.js';

const kit = await openSuite('upload', 'upload-races');
const { races } = checks;
const pdf = await textPdf(['docproc conformance', 'upload race']);
const TOGETHER = 4;
const codeOf = (json: unknown) => (json as { code?: unknown } | undefined)?.code;

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
      );
      const accepted = race.exchanges.filter((e) => e.status === 202);
      const sets = [...new Set(accepted.map((e) => JSON.stringify(idsOf(uploaded(e)))))];
      const others = race.exchanges.filter((e) => e.status !== 202);
      race.verify(
        races.sameKey,
        sets.length === 1 && others.every((e) => e.status === 409 && codeOf(e.json) === 'idempotency_key_in_use'),
        () => ({
          received: show(
            race.exchanges.map((e) => (e.status === 202 ? `202 ids ${show(idsOf(uploaded(e)))}` : `${e.status} ${codeOf(e.json) ?? ''}`)),
          ),
          documented:
            'one set of documents: the first upload to arrive creates it, each other one is its replay or a 409 idempotency_key_in_use',
          exchange: accepted[1] ?? others[0] ?? race.exchanges[0]!,
        }),
      );
      const search = await kit.api.list({ search: t, limit: kit.facts.maxLimit });
      const found = search.status === 200 ? idsOf(listed(search).documents) : [];
      const made = JSON.parse(sets[0]!) as number[];
      race.verify(races.sameKey, sameSet(found, made), () => ({
        received: `documents named ${t}: ${setText(found)}`,
        documented: `only the one set ${setText(made)}`,
        exchange: search,
      }));
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
      );
      kit.require(
        races.distinctIds,
        race.exchanges.every((e) => e.status === 202),
        () => ({
          received: show(race.exchanges.map((e) => e.status)),
          documented: `${TOGETHER} x 202 (valid uploads)`,
          exchange: race.exchanges.find((e) => e.status !== 202)!,
        }),
      );
      const ids = race.exchanges.flatMap((e) => idsOf(uploaded(e)));
      race.verify(races.distinctIds, new Set(ids).size === ids.length && ids.length === TOGETHER, () => ({
        received: `ids ${show(ids)} for ${show(names)}`,
        documented: `${TOGETHER} different ids, one per uploaded file`,
        exchange: race.exchanges[ids.findIndex((id, i) => ids.indexOf(id) !== i)] ?? race.exchanges[0]!,
      }));
      for (const [i, id] of ids.entries()) {
        const read = await kit.as(keys[i]!).get(id);
        race.verify(races.distinctIds, read.status === 200 && documentOf(read).filename === names[i], () => ({
          received: `document ${id} reads back as ${describeResponse(read)}`,
          documented: `document ${id} is ${show(names[i])}, the one file its upload sent`,
          exchange: read,
        }));
      }
    },
  );
});
