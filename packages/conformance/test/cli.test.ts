import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { runSuite } from '@docproc-kit/test-support/run-suite.js';
import { CONFORMANCE_AREAS } from 'docproc-kit/commands/conformance.js';
import { describe, expect, it } from 'vitest';

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('docproc conformance: usage errors and unreachable targets exit 2 with one clear line', { concurrent: true }, () => {
  const cases: Array<{ name: string; args: (port: number) => string[]; env?: (port: number) => NodeJS.ProcessEnv; message: RegExp }> = [
    {
      name: 'an unreachable target',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k'],
      message: /cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    },
    {
      name: 'the target from DOCPROC_BASE_URL and DOCPROC_API_KEY',
      args: () => [],
      env: (p) => ({ DOCPROC_BASE_URL: `http://127.0.0.1:${p}`, DOCPROC_API_KEY: 'k' }),
      message: /cannot reach http:\/\/127\.0\.0\.1:\d+/,
    },
    { name: 'no --base-url', args: () => ['--api-key', 'k'], message: /required option '--base-url <url>' not specified/ },
    {
      name: 'an unknown --profile',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--profile', 'quick'],
      message: /'quick' is invalid/,
    },
    {
      name: 'a --timeout-ms that is not a number',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--timeout-ms', 'soon'],
      message: /expected an integer from 1 up, not "soon"/,
    },
    {
      name: 'an unknown --only area',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--only', 'payments'],
      message: /expected some of auth/,
    },
    {
      name: 'a --base-url that already ends in /api/v1',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}/api/v1`, '--api-key', 'k'],
      message: /without \/api\/v1 .*try http:\/\/127\.0\.0\.1:\d+$/m,
    },
    {
      name: 'a DOCPROC_STRICT that is not a boolean',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k'],
      env: () => ({ DOCPROC_STRICT: 'maybe' }),
      message: /DOCPROC_STRICT must be true or false, not "maybe"/,
    },
    {
      name: 'the same key as --api-key and --second-api-key',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--second-api-key', 'k'],
      message: /--second-api-key is the same key as --api-key/,
    },
    {
      name: 'a --workers of 0',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--workers', '0'],
      message: /--workers.*expected an integer from 1 to 16, not "0"/,
    },
    {
      name: 'a --seed that is not an integer',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--seed', '0x2a'],
      message: /--seed.*expected an integer from 0 to 2147483647, not "0x2a"/,
    },
    {
      name: 'a DOCPROC_MODEL_RUNS of 0',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k'],
      env: () => ({ DOCPROC_MODEL_RUNS: '0' }),
      message: /--model-runs.*expected an integer from 1 up, not "0"/,
    },
    {
      name: 'a --rate-limit that is neither a number nor auto',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--rate-limit', 'fast'],
      message: /--rate-limit.*expected requests per second \(e\.g\. 10 or 0\.5\) or auto, not "fast"/,
    },
    {
      name: 'a DOCPROC_MAX_RUN_S of 0',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k'],
      env: () => ({ DOCPROC_MAX_RUN_S: '0' }),
      message: /--max-run-s.*expected an integer from 1 up, not "0"/,
    },
    {
      name: 'a --min-coverage over 100',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--min-coverage', '101'],
      message: /--min-coverage.*expected a percentage from 0 to 100, not "101"/,
    },
    {
      name: 'a --spec that does not exist',
      args: (p) => ['--base-url', `http://127.0.0.1:${p}`, '--api-key', 'k', '--spec', 'no/such/openapi.yaml'],
      message: /cannot use --spec .*no\/such\/openapi\.yaml/,
    },
    {
      name: 'diff of a report that does not exist',
      args: () => ['diff', 'no/such/before.json', 'no/such/after.json'],
      message: /conformance diff: cannot read no\/such\/before\.json/,
    },
  ];
  it.each(cases)(
    '$name',
    async ({ args, env, message }) => {
      const port = await closedPort();
      const run = await runSuite(args(port), { env: env?.(port) ?? {} });
      expect(run.code, run.output).toBe(2);
      expect(run.output).toMatch(message);
      expect(run.output, 'no stack trace').not.toMatch(/^\s+at /m);
      expect(run.report, 'nothing ran').toBeUndefined();
    },
    60_000,
  );
});

describe('docproc conformance --workers 1', () => {
  it('sends the requests of one scenario file at a time (list has three files)', async () => {
    const server = await startReferenceServer({ apiKeys: ['workers-key'], processingDelayMs: 50 });
    // Requests in flight per scenario file, from the file part of the suite's request ids.
    const inFlight = new Map<string, number>();
    const files = new Set<string>();
    const overlaps: string[] = [];
    const proxy = await startMutationProxy(server.baseUrl, {
      async respond(request, upstream) {
        const file = /^conformance-\d{8}t\d{6}-[0-9a-f]{6}-(.+)-\d+$/.exec(request.headers['x-request-id'] ?? '')?.[1];
        if (file === undefined) return upstream(request);
        files.add(file);
        const others = [...inFlight].filter(([f, n]) => f !== file && n > 0).map(([f]) => f);
        if (others.length) overlaps.push(`${file} while ${others.join(', ')}`);
        inFlight.set(file, (inFlight.get(file) ?? 0) + 1);
        try {
          return await upstream(request);
        } finally {
          inFlight.set(file, inFlight.get(file)! - 1);
        }
      },
    });
    try {
      const run = await runSuite(['--base-url', proxy.baseUrl, '--api-key', 'workers-key', '--only', 'list', '--workers', '1']);
      expect(run.code, run.output).toBe(0);
      expect([...files].sort()).toEqual(['list', 'list-filters', 'list-order-races']);
      expect(overlaps).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 120_000);
});

describe('docproc conformance --min-coverage', () => {
  it('fails a run that reached less of the partitions and states than asked, on its own line and with no failed check', async () => {
    const server = await startReferenceServer({ apiKeys: ['coverage-key'], processingDelayMs: 50 });
    try {
      const args = ['--base-url', server.baseUrl, '--api-key', 'coverage-key', '--only', 'list'];
      const [short, enough] = await Promise.all([
        runSuite(args, { env: { DOCPROC_MIN_COVERAGE: '99.5' } }),
        runSuite([...args, '--min-coverage', '1']),
      ]);
      expect(short.code, short.output).toBe(1);
      expect(short.output).toMatch(/^ docproc conformance {2}coverage \d+\.\d% is below --min-coverage 99\.5%: exit 1$/m);
      expect(short.report!.result, 'the checks themselves passed').toBe('passed');
      expect(enough.code, enough.output).toBe(0);
      // Every operation has its line in the summary and its entry in the report, whatever the areas run reached.
      expect(enough.output).toMatch(/^ {4}uploadDocuments +partitions \d+\/\d+, states \d+\/4$/m);
      expect(enough.report!.coverage.operations.map((o) => o.operation)).toEqual([
        'uploadDocuments',
        'listDocuments',
        'getDocument',
        'retryDocument',
      ]);
      // And what it did not reach, with why: --only left out the sequences that send the rest; one key, no other tenant.
      const why = enough.report!.coverage.operations.flatMap((o) => Object.values({ ...o.partitions.why, ...o.states.why }));
      expect(new Set(why.map((w) => w.cause))).toEqual(new Set(['left out', 'a deployment limit']));
      expect(enough.output).toContain(
        'left out: --only list left out model and oracle, whose fixed sequences send every partition and state',
      );
      expect(enough.output).toMatch(/^ {6}not exercised \(a deployment limit\): header x-api-key: key: another tenant's key$/m);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('what the suite imports', () => {
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const importsOf = (file: string) => [...readFileSync(join(src, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);

  // observe/ (what the proxy reports of a backend's traffic) writes the reference journal's entries, HAR and
  // redaction, so a proxy's report reads as the server's journal does; it takes nothing that judges.
  const journalShape = /^@docproc-kit\/reference\/(journal\/|http\/redaction\.js$)/;
  const mayUseReference = (file: string, spec: string) =>
    file.startsWith('oracle/') || (file.startsWith('observe/') && journalShape.test(spec));

  it('never reaches into the reference server, the CLI or test helpers: it must judge any server, never the reference one from inside', () => {
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter(
          (spec) =>
            /^(docproc-kit|@docproc-kit\/msw)(\/|$)/.test(spec) ||
            (/^@docproc-kit\/reference(\/|$)/.test(spec) && !mayUseReference(file, spec)) ||
            (spec.startsWith('.') && !resolve(dirname(join(src, file)), spec).startsWith(src)),
        )
        .map((spec) => `${file}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('takes the reference core only as the oracle it runs beside the target, in src/oracle/ (and the journal shape in observe/)', () => {
    const users = files.filter((file) => importsOf(file).some((spec) => spec.startsWith('@docproc-kit/reference/')));
    expect(users.length).toBeGreaterThan(0);
    expect(
      users.filter((file) => importsOf(file).some((spec) => spec.startsWith('@docproc-kit/reference/') && !mayUseReference(file, spec))),
    ).toEqual([]);
  });
});

describe('--only areas', () => {
  it('name exactly the scenario files there are', () => {
    const files = readdirSync(new URL('../src/scenarios/', import.meta.url)).filter((f) => f.endsWith('.suite.ts'));
    const areaOf = (file: string) => CONFORMANCE_AREAS.find((a) => file === `${a}.suite.ts` || file.startsWith(`${a}-`));
    expect(
      files.filter((f) => !areaOf(f)),
      'files no area selects',
    ).toEqual([]);
    expect(
      CONFORMANCE_AREAS.filter((a) => !files.some((f) => areaOf(f) === a)),
      'areas without a file',
    ).toEqual([]);
  });
});
