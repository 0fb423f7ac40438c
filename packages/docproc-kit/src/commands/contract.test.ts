import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { type ContractDiffRun, runContractDiff } from '@docproc-kit/test-support/contract-diff.js';
import { at, edited } from '@docproc-kit/test-support/contract-edits.js';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docproc contract diff` as a real process, on real edited contracts: what it prints, and its exit code.
const LIST = '/api/v1/documents/get_documents';
const dir = mkdtempSync(join(tmpdir(), 'docproc-contract-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | object): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : dump(content));
  return file;
}

const listRemoved = write(
  'list-removed.yaml',
  edited((doc) => delete at(doc, 'paths')[LIST]),
);
const v2 = write(
  'v2.yaml',
  edited((doc) => {
    const paths = at(doc, 'paths');
    for (const path of Object.keys(paths)) {
      paths[path.replace('/api/v1/', '/api/v2/')] = paths[path];
      delete paths[path];
    }
    delete paths[LIST.replace('/api/v1/', '/api/v2/')];
  }),
);
const acceptedList = write(
  'accepted.md',
  `# Accepted\n\n| Rule | Location | Why | Date |\n|---|---|---|---|\n| api-operation-removed | \`GET ${LIST}\` | listing moves to search | 2026-12-01 |\n`,
);
const noneAccepted = write('none.md', '| Rule | Location | Why | Date |\n|---|---|---|---|\n');
const badDate = write(
  'bad-date.md',
  `| Rule | Location | Why | Date |\n|---|---|---|---|\n| api-operation-removed | GET ${LIST} | why | yesterday |\n`,
);
const invalid = write('invalid.yaml', 'openapi: 3.1.0\ninfo: {}\n');
const notYaml = write('not-yaml.yaml', 'openapi: [3.1.0\n');

const json = (run: ContractDiffRun) =>
  JSON.parse(run.stdout) as { counts: Record<string, number>; changes: Array<Record<string, unknown>>; exit: number };

/** Runs every case, four processes at a time (most of each one's time is start-up). */
async function runAll(cases: Record<string, string[]>): Promise<Record<string, ContractDiffRun>> {
  const queue = Object.entries(cases);
  const out: Record<string, ContractDiffRun> = {};
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) out[next[0]] = await runContractDiff(next[1]);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return out;
}

let runs: Record<string, ContractDiffRun> = {};
beforeAll(async () => {
  runs = await runAll({
    same: [bundledSpecPath, bundledSpecPath],
    sameAtGit: ['git:HEAD', 'git:HEAD', '--format', 'json'],
    removed: [bundledSpecPath, listRemoved],
    removedJson: [bundledSpecPath, listRemoved, '--format', 'json'],
    added: [listRemoved, bundledSpecPath],
    accepted: [bundledSpecPath, listRemoved, '--accepted-breaks', acceptedList],
    notAccepted: [bundledSpecPath, listRemoved, '--accepted-breaks', noneAccepted],
    bumped: [bundledSpecPath, v2, '--accepted-breaks', noneAccepted],
    bumpedUngated: [bundledSpecPath, v2],
    badDate: [bundledSpecPath, listRemoved, '--accepted-breaks', badDate],
    missingFile: [join(dir, 'nowhere.yaml'), bundledSpecPath],
    invalid: [invalid, bundledSpecPath],
    notYaml: [bundledSpecPath, notYaml],
    unknownRef: ['git:no-such-ref-anywhere', bundledSpecPath],
    oneArgument: [bundledSpecPath],
    badFormat: [bundledSpecPath, bundledSpecPath, '--format', 'xml'],
    urlWithoutBehaviour: [bundledSpecPath, bundledSpecPath, '--base-url', 'http://127.0.0.1:9'],
    behaviourWithoutUrl: [bundledSpecPath, bundledSpecPath, '--behaviour'],
  });
}, 300_000);
const show = (run: ContractDiffRun) => `${run.stdout}${run.stderr}`;

describe('docproc contract diff', () => {
  it('finds nothing between a contract and itself, read from a file or from git, and exits 0', () => {
    expect(runs.same!.code, show(runs.same!)).toBe(0);
    expect(runs.same!.stdout).toContain('0 breaking changes, 0 warnings, 0 compatible: exit 0');
    expect(runs.sameAtGit!.code, show(runs.sameAtGit!)).toBe(0);
    expect(json(runs.sameAtGit!)).toMatchObject({ counts: { breaking: 0 }, changes: [], exit: 0 });
  });

  it('groups a removed operation under breaking, with its rule, location and why, and exits 1', () => {
    const run = runs.removed!;
    expect(run.code, show(run)).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(`Breaking: a client written to BASE can fail against HEAD \\(1\\)\\n  api-operation-removed  GET ${LIST}\\n      \\S`),
    );
    expect(run.stdout).toContain('1 breaking change, 0 warnings, 0 compatible: exit 1');
  });

  it('prints the same for machines with --format json', () => {
    const run = runs.removedJson!;
    expect(run.code, show(run)).toBe(1);
    expect(json(run)).toMatchObject({
      counts: { breaking: 1 },
      changes: [{ rule: 'api-operation-removed', severity: 'breaking', location: `GET ${LIST}`, why: expect.any(String) }],
      exit: 1,
    });
  });

  it("calls an added operation compatible and lists it apart as an implementation's work, exit 0", () => {
    const run = runs.added!;
    expect(run.code, show(run)).toBe(0);
    expect(run.stdout).toMatch(/Compatible \(1\)\n {2}api-operation-added/);
    expect(run.stdout).toMatch(
      new RegExp(`What an implementation of BASE must change \\(1; never a failure\\)\\n  api-operation-added  GET ${LIST}`),
    );
  });

  describe('as the release gate (--accepted-breaks)', () => {
    it('lets a breaking change with an entry pass, saying who decided it and why', () => {
      const run = runs.accepted!;
      expect(run.code, show(run)).toBe(0);
      expect(run.stdout).toContain('Breaking, accepted by a recorded decision (1)');
      expect(run.stdout).toContain('accepted 2026-12-01: listing moves to search');
      expect(run.stdout).toContain('0 breaking changes (1 more accepted)');
    });

    it('fails a breaking change without one', () => {
      expect(runs.notAccepted!.code, show(runs.notAccepted!)).toBe(1);
    });

    it('lets every break pass when HEAD moves the base path to /api/v2, and only then', () => {
      expect(runs.bumped!.code, show(runs.bumped!)).toBe(0);
      expect(runs.bumped!.stdout).toContain('accepted: the base path moves from /api/v1 to /api/v2');
      expect(runs.bumpedUngated!.code, show(runs.bumpedUngated!)).toBe(1);
    });

    it('refuses an entry without a proper date, naming its line (exit 2)', () => {
      expect(runs.badDate!.code, show(runs.badDate!)).toBe(2);
      expect(runs.badDate!.stderr).toContain(`${badDate}:3: the date must be YYYY-MM-DD, not "yesterday"`);
    });
  });

  it.each([
    ['a file that does not exist', 'missingFile', 'nowhere.yaml: no such file'],
    ['a contract that is not valid OpenAPI', 'invalid', 'is not a valid OpenAPI contract'],
    ['a file that is not YAML', 'notYaml', 'is not a valid OpenAPI contract'],
    ['an unknown git ref', 'unknownRef', 'git:no-such-ref-anywhere: no such commit'],
    ['one contract instead of two', 'oneArgument', "missing required argument 'head'"],
    ['an unknown format', 'badFormat', 'Allowed choices are text, json'],
    ['--base-url without --behaviour', 'urlWithoutBehaviour', '--base-url and --api-key go with --behaviour'],
    ['--behaviour without a deployment', 'behaviourWithoutUrl', '--behaviour needs --base-url'],
  ])('exits 2 with a clear message on %s', (_, name, message) => {
    const run = runs[name]!;
    expect(run.code, show(run)).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
});
