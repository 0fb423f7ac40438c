import { checks } from '../checks/index.js';
import { expectNothingCreated } from '../harness/absence.js';
import { describe, openSuite } from '../harness/suite.js';
import { fixture, part, pdfOfSize, textPdf } from '../inputs/sample-files.js';
import { waitForAll } from '../judging/wait.js';
import { idsOf, listed, problemCode, uploaded } from '../transport/api.js';
import { sleep } from '../transport/polling.js';

const kit = await openSuite('upload', 'upload-idempotency');
const { expectProblem } = kit;
const { idempotency } = checks;
const pdf = textPdf(['docproc conformance idempotency', kit.token()]);
const otherPdf = textPdf(['docproc conformance idempotency, other bytes', kit.token()]);
// Keys are scoped to the API key and live 24 h: one per scenario and run keeps runs independent.
const keyFor = (label: string) => `${kit.token(label)}-key`;

/** The header the contract documents on the upload's 202 for a replay (`Idempotent-Replayed`), if any. */
function replayHeader(): string | undefined {
  const accepted = kit.contract.operation('uploadDocuments')?.definition.responses?.['202'] as
    | { headers?: Record<string, unknown> }
    | undefined;
  return Object.keys(accepted?.headers ?? {}).find((name) => /replay/i.test(name));
}

/** Every document of this run whose name carries `token` (the search is proven by list.search-by-filename). */
async function documentsNamed(token: string) {
  const search = await kit.api.list({ search: token, limit: kit.facts.maxLimit });
  return { search, ids: search.status === 200 ? idsOf(listed(search).documents) : [] };
}

describe('uploadDocuments with an Idempotency-Key', () => {
  kit.scenario(
    'the same upload sent twice under one key is replayed: same ids, nothing new',
    { profile: 'full', checks: [idempotency.replay] },
    async (tools) => {
      const t = kit.token('replay');
      const headers = { 'Idempotency-Key': keyFor('replay') };
      const parts = [part(`${t}-1.pdf`, pdf), part(`${t}-2.pdf`, pdf)].slice(0, kit.limits.maxFiles);
      const first = await kit.api.upload(parts, { headers });
      const firstIds = idsOf(uploaded(first));
      if (firstIds.length !== parts.length) return tools.notExercised(`the first upload was not accepted (${first.status})`);
      const again = await kit.api.upload(parts, { headers });
      kit.check(idempotency.replay, { kind: 'answer', status: again.status, firstIds, againIds: idsOf(uploaded(again)) }, again);
      const { search, ids } = await documentsNamed(t);
      kit.check(idempotency.replay, { kind: 'stored', token: t, ids, firstIds }, search);
      // "replays the first `202`": once the documents have been processed, a replay still says what the first
      // answer said, not what they are now.
      const ended = await waitForAll(kit.api, uploaded(first), kit.config.timeoutMs);
      if (ended.some((d) => d.status === 'processing')) return;
      const late = await kit.api.upload(parts, { headers });
      if (late.status === 202) kit.check(idempotency.replay, { kind: 'late', documents: uploaded(late) }, late);
    },
  );

  kit.scenario(
    'a replay says so in its header; a first upload does not',
    { profile: 'full', checks: [idempotency.replayHeader] },
    async (tools) => {
      const header = replayHeader();
      if (!header) return tools.notExercised("the contract documents no replay header on the upload's 202");
      const headers = { 'Idempotency-Key': keyFor('replay-header') };
      const parts = [part(`${kit.token('replay-header')}.pdf`, pdf)];
      const first = await kit.api.upload(parts, { headers });
      if (first.status !== 202) return tools.notExercised(`the first upload was not accepted (${first.status})`);
      const again = await kit.api.upload(parts, { headers });
      const sameIds = JSON.stringify(idsOf(uploaded(again))) === JSON.stringify(idsOf(uploaded(first)));
      if (again.status !== 202 || !sameIds) return tools.notExercised(`the repeat was not replayed (see upload.idempotent-replay)`);
      kit.check(idempotency.replayHeader, { header, value: first.headers.get(header), replay: false }, first);
      kit.check(idempotency.replayHeader, { header, value: again.headers.get(header), replay: true }, again);
    },
  );

  kit.scenario(
    'other files under a used key are a 409 idempotency_key_reused that stores nothing',
    { profile: 'full', checks: [idempotency.reused] },
    async (tools) => {
      // Two tokens, neither containing the other: the search below must not find the first upload.
      const t = kit.token('reused-other');
      const headers = { 'Idempotency-Key': keyFor('reused') };
      const first = await kit.api.upload([part(`${kit.token('reuse-original')}.pdf`, pdf)], { headers });
      if (first.status !== 202) return tools.notExercised(`the first upload was not accepted (${first.status})`);
      const other = await kit.api.upload([part(`${t}-other.pdf`, pdf)], { headers });
      expectProblem(idempotency.reused, other, 409, 'idempotency_key_reused', 'the key was used for other files');
      await expectNothingCreated(kit, tools, idempotency.reused, t, pdf);
      // "Same files": the same names with other bytes are other files.
      const bytesHeaders = { 'Idempotency-Key': keyFor('reused-bytes') };
      const named = [part(`${kit.token('reuse-bytes')}.pdf`, pdf)];
      if ((await kit.api.upload(named, { headers: bytesHeaders })).status === 202) {
        const rewritten = await kit.api.upload([{ ...named[0]!, data: otherPdf }], { headers: bytesHeaders });
        expectProblem(
          idempotency.reused,
          rewritten,
          409,
          'idempotency_key_reused',
          'the key was used for a file of the same name with other bytes',
        );
      }
      // "The same files in the same order": the same two parts in the other order are other files.
      if (kit.limits.maxFiles < 2) return;
      const orderHeaders = { 'Idempotency-Key': keyFor('reordered') };
      const parts = [part(`${kit.token('reorder-first')}.pdf`, pdf), part(`${kit.token('reorder-second')}.pdf`, pdf)];
      const ordered = await kit.api.upload(parts, { headers: orderHeaders });
      // Not accepted, the order cannot be judged; the case above was.
      if (ordered.status !== 202) return;
      const reordered = await kit.api.upload([...parts].reverse(), { headers: orderHeaders });
      expectProblem(idempotency.reused, reordered, 409, 'idempotency_key_reused', 'the key was used for the same files in another order');
    },
  );

  kit.scenario(
    'a repeat while the first is in flight is a 409 idempotency_key_in_use, never a second set',
    { profile: 'full', checks: [idempotency.inUse] },
    async (tools) => {
      const t = kit.token('in-use');
      const headers = { 'Idempotency-Key': keyFor('in-use') };
      // A few megabytes keep the first upload in flight while the repeat arrives.
      const parts = [part(`${t}.pdf`, pdfOfSize(Math.min(4 * 1024 * 1024, kit.limits.maxFileBytes)))];
      const [a, b] = await Promise.all([kit.api.upload(parts, { headers }), kit.api.upload(parts, { headers })]);
      const accepted = [a, b].filter((x) => x.status === 202);
      const refused = [a, b].filter((x) => x.status !== 202);
      if (accepted.length === 2) {
        // The first finished before the repeat arrived: a replay is correct, two sets are not.
        kit.check(idempotency.inUse, { kind: 'both-accepted', a: idsOf(uploaded(a)), b: idsOf(uploaded(b)) }, b);
        return tools.notExercised('the first upload finished before the repeat arrived, so the in-flight case did not occur');
      }
      if (accepted.length === 0) return tools.notExercised(`neither upload was accepted (${a.status}, ${b.status})`);
      const [winner, loser] = [accepted[0]!, refused[0]!]; // one of each: exactly one of the two was a 202
      expectProblem(idempotency.inUse, loser, 409, 'idempotency_key_in_use', 'the same key is still being handled');
      const { search, ids } = await documentsNamed(t);
      kit.check(idempotency.inUse, { kind: 'stored', token: t, ids, expected: idsOf(uploaded(winner)) }, search);
    },
  );

  // Names a service keeping keys in a JavaScript object or map may confuse with no key, or find there already.
  const valueNames = ['undefined', 'null', '__proto__', 'constructor'];
  const sameInEveryRun = textPdf(['docproc conformance idempotency key spelled like a JavaScript value']);
  kit.scenario(
    'an Idempotency-Key spelled like a JavaScript value is a key like any other: its first upload creates documents',
    { profile: 'full', checks: [idempotency.keyAsText] },
    async (tools) => {
      let judged = 0;
      for (const key of valueNames) {
        // Keys live 24 hours and these are the same in every run, so the files are too (no run token in their
        // names): an earlier run's upload under the key makes this one its replay, never a 409. A 409 may still
        // come of another scenario's keyless upload landing between the two, on a service that files keyless
        // uploads under this key: so the pair is sent up to three times.
        for (let attempt = 1; attempt <= 3; attempt++) {
          const parts = [part(`conformance-idempotency-key-spelled-${key}.pdf`, sameInEveryRun)];
          const keyless = await kit.api.upload(parts);
          if (keyless.status !== 202) return tools.notExercised(`the upload without a key was answered ${keyless.status}, not 202`);
          const keyed = await kit.api.upload(parts, { headers: { 'Idempotency-Key': key } });
          if (keyed.status === 409 && problemCode(keyed) === 'idempotency_key_reused') continue;
          // Another run against this target sending the same files under the same key at this moment.
          if (keyed.status === 409 && problemCode(keyed) === 'idempotency_key_in_use') {
            await sleep(500);
            continue;
          }
          judged++;
          const observation = {
            key,
            status: keyed.status,
            code: problemCode(keyed),
            replayed: keyed.headers.get(replayHeader() ?? 'Idempotent-Replayed'),
            keyless: idsOf(uploaded(keyless)),
            sent: parts.map((p) => p.filename),
            documents: uploaded(keyed),
          };
          kit.check(idempotency.keyAsText, observation, keyed);
          break;
        }
      }
      if (judged === 0)
        tools.notExercised(
          `every key of ${valueNames.join(', ')} was a 409 each time: used for other files within 24 hours (idempotency_key_reused), or by another run at that moment (idempotency_key_in_use)`,
        );
    },
  );

  kit.scenario(
    'an Idempotency-Key is compared exactly: one that differs from a used key only in letter case is another key',
    { profile: 'full', checks: [idempotency.keyAsText] },
    async (tools) => {
      const lower = keyFor('letter-case').toLowerCase();
      const upper = lower.toUpperCase();
      const first = await kit.api.upload([part(`${kit.token('key-lower')}.pdf`, pdf)], { headers: { 'Idempotency-Key': lower } });
      if (first.status !== 202) return tools.notExercised(`the upload under ${lower} was answered ${first.status}, not 202`);
      const parts = [part(`${kit.token('key-upper')}.pdf`, otherPdf)];
      const keyed = await kit.api.upload(parts, { headers: { 'Idempotency-Key': upper } });
      const observation = {
        key: upper,
        status: keyed.status,
        code: problemCode(keyed),
        replayed: keyed.headers.get(replayHeader() ?? 'Idempotent-Replayed'),
        keyless: idsOf(uploaded(first)),
        other: `the upload of other files under ${JSON.stringify(lower)}`,
        sent: parts.map((p) => p.filename),
        documents: uploaded(keyed),
      };
      kit.check(idempotency.keyAsText, observation, keyed);
    },
  );

  const refusals = [
    {
      label: 'a 415 (a text file)',
      status: 415,
      parts: (t: string) => [part(`${t}-notes.txt`, fixture('not-a-document.txt'), 'text/plain')],
    },
    {
      label: 'a 400 (a part under another field name)',
      status: 400,
      parts: (t: string) => [part(`${t}-typo.pdf`, pdf, 'application/pdf', 'file')],
    },
  ];
  for (const refusal of refusals) {
    kit.scenario(
      `an upload refused with ${refusal.label} is not remembered: valid files under the same key are a 202`,
      { profile: 'full', checks: [idempotency.afterFailure] },
      async (tools) => {
        const t = kit.token(`after-${refusal.status}`);
        const headers = { 'Idempotency-Key': keyFor(`after-${refusal.status}`) };
        const first = await kit.api.upload(refusal.parts(t), { headers });
        if (first.status !== refusal.status)
          return tools.notExercised(`the invalid upload was answered ${first.status}, not ${refusal.status} (see the upload checks)`);
        const parts = [part(`${t}-valid.pdf`, pdf)];
        const again = await kit.api.upload(parts, { headers });
        const observation = {
          refused: refusal.status,
          status: again.status,
          code: problemCode(again),
          replayed: again.headers.get(replayHeader() ?? 'Idempotent-Replayed'),
          sent: parts.map((p) => p.filename),
          documents: uploaded(again),
        };
        kit.check(idempotency.afterFailure, observation, again);
      },
    );
  }
});
