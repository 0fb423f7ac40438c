import { responseCheckOrder } from '@docproc-kit/conformance/checks/response.js';
import { benignVariants } from '@docproc-kit/conformance/proofs/benign-variants.js';
import { allMutants } from '@docproc-kit/conformance/proofs/mutant-catalog.js';
import { type Contract, loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { typedClientTraffic } from '@docproc-kit/test-support/client-traffic.js';
import { type Mutation, startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJudging } from './judging.js';
import { createProxyServer } from './proxy-server.js';

// The proxy proven both ways with the suite's own proofs (slow tier): the typed client's traffic through
// it in front of every mutant whose defect one exchange (or an earlier one) shows is reported under the
// mutant's check; in front of every benign variant, nothing is.
const KEYS = { primary: 'docproc-dev-key', secondary: 'docproc-second-key' };

/** The checks the proxy judges on live traffic: the response checks and the stateful ones it can see. */
const JUDGED = new Set([
  ...responseCheckOrder.map((c) => c.id),
  'upload.one-document-per-part',
  'get.matches-upload',
  'retry.restarts-processing',
]);

/** Mutants of a judged check that the typed client's traffic cannot show, each with why. */
const NOT_SHOWN_BY_CLIENT_TRAFFIC: Record<string, string> = {
  'crashes-on-json-upload': 'the defect answers a JSON-bodied upload, which the typed client never sends',
  'wrong-method-is-404': 'the defect answers a wrong method, which the typed client never sends',
  'list-answer-unbounded':
    "response.bounded-body is the suite's client-side cap; the proxy passes any body through and judges its beginning",
  'proxy-page-strict': "an intermediary's page: judged with --strict only, and answered to requests the typed client never sends",
  'undocumented-property-strict': 'a warning unless --strict (the proxy warns too; the run here is not strict)',
  'hangs-on-unknown-id': 'http.responds: the proxy forwards a hang as the hang it is',
  'unavailable-without-retry-after':
    "a 429/503 is the client's to wait out: the proxy passes it through unjudged (the suite judges the service's own)",
  'unavailable-with-http-date':
    "a 429/503 is the client's to wait out: the proxy passes it through unjudged (the suite judges the service's own)",
  'allow-missing': 'the defect answers a wrong method (405), which the typed client never sends',
  'parser-limit-names-nothing': 'the defect answers an upload with a text field over 1 KiB, which the typed client never sends',
  'request-id-made-with-spaces':
    'the defect is in the id a server makes for a request without one; the typed client traffic here always sends one',
  'request-id-overlong': 'the defect is in the id a server makes for a request without one; the typed client traffic here always sends one',
  'request-id-empty': 'the defect is in the id a server makes for a request without one; the typed client traffic here always sends one',
  'request-id-cut-at-semicolon':
    "the defect cuts an echoed id at its first ';', and the typed client traffic here sends ids of letters, digits and '-'",
};

const shownMutants = allMutants.filter((m) => m.fails.some((id) => JUDGED.has(id)) && !(m.name in NOT_SHOWN_BY_CLIENT_TRAFFIC));

let server: RunningReferenceServer;
let contract: Contract;
beforeAll(async () => {
  server = await startReferenceServer({ processingDelayMs: 20, apiKeys: [KEYS.primary, KEYS.secondary] });
  contract = await loadBundledContract();
});
afterAll(() => server?.close());

/** The check ids the proxy reported for the typed client's traffic through `mutation`, in front of `upstream`. */
async function reportedThrough(mutation: Mutation, upstream = server.baseUrl): Promise<string[]> {
  const wire = await startMutationProxy(upstream, mutation);
  const settings = { target: wire.baseUrl, spec: bundledSpecPath, strict: false, bodyCap: 2 * 1024 * 1024, keep: 1_000 };
  const proxy = createProxyServer({ target: wire.baseUrl, judging: createLocalJudging(settings, contract), bodyCap: settings.bodyCap });
  try {
    const url = await proxy.listen(0, '127.0.0.1');
    // A broken server may break the client's own flow (a wait that never ends): what passed is judged anyway.
    await typedClientTraffic(url, KEYS.primary).catch(() => undefined);
    await proxy.settled();
    return [...new Set((await proxy.judging.newest(1_000)).map((v) => v.check))].sort();
  } finally {
    await proxy.close();
    await wire.close();
  }
}

describe('docproc proxy in front of the proofs', () => {
  it.each(shownMutants.map((m) => [m.name, m] as const))('reports mutant %s under its check', async (_, mutant) => {
    const reported = await reportedThrough(mutant.mutation(KEYS));
    const expected = mutant.fails.filter((id) => JUDGED.has(id));
    expect(reported).toEqual(expect.arrayContaining(expected));
  });

  it.each(benignVariants.map((v) => [v.name, v] as const))('reports nothing in front of benign variant %s', async (_, variant) => {
    const behind = variant.server
      ? await startReferenceServer({ processingDelayMs: 20, apiKeys: [KEYS.primary], ...variant.server })
      : undefined;
    try {
      expect(await reportedThrough(variant.mutation ?? {}, behind?.baseUrl)).toEqual([]);
    } finally {
      await behind?.close();
    }
  });
});
