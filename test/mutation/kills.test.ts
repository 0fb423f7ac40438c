import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { clearKills, KILLS_FILE, killedOnlyByOracle, readKills, recordVerdict, repositoryOf } from '../../scripts/mutation/kills.js';

describe('the kills file', () => {
  const dirs: string[] = [];
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), 'docproc-kills-'));
    dirs.push(dir);
    return join(dir, 'reports', 'kills.jsonl');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("lies in the repository's reports, also when the suite runs in one of Stryker's sandboxes", () => {
    expect(KILLS_FILE).toBe(fileURLToPath(new URL('../../reports/mutation/kills.jsonl', import.meta.url)));
    expect(repositoryOf('/work/repo/.stryker-tmp/sandbox-4711/')).toBe('/work/repo/');
    expect(repositoryOf('/work/repo/')).toBe('/work/repo/');
  });

  it('keeps each mutant run by Stryker with the checks that failed in both runs, and is emptied by a new run', () => {
    const kills = file();
    recordVerdict({ failedBoth: ['list.order'], failedOnce: ['retry.race'] }, kills, '7');
    recordVerdict({ failedBoth: [], failedOnce: [] }, kills, '8');
    recordVerdict({ failedBoth: ['list.order'], failedOnce: [] }, kills, undefined);
    expect(readKills(kills)).toEqual(
      new Map([
        ['7', { mutant: '7', killed: true, failedBoth: ['list.order'], failedOnce: ['retry.race'] }],
        ['8', { mutant: '8', killed: false, failedBoth: [], failedOnce: [] }],
      ]),
    );
    clearKills(kills);
    expect(readKills(kills).size).toBe(0);
  });

  it.each([
    [['oracle.list-page'], 1],
    [['oracle.list-page', 'oracle.read'], 1],
    [['oracle.list-page', 'list.order'], 0],
    [['list.order'], 0],
    [[], 0],
  ])('counts a kill by %j as made by the oracle alone: %i', (failedBoth, expected) => {
    const kills = file();
    recordVerdict({ failedBoth, failedOnce: [] }, kills, '1');
    expect(killedOnlyByOracle(['1', '2'], readKills(kills))).toBe(expected);
  });
});
