import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';

// The tiers live in package.json's scripts as `--project` lists; a project added to vitest.config.ts and
// to neither list would silently never run, in CI or anywhere.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const projectsOf = (script = '') => [...script.matchAll(/--project (\S+)/g)].map((m) => m[1]!);
const projects = (config.test?.projects ?? []).map((p) => (typeof p === 'object' && 'test' in p ? p.test?.name : String(p)));

describe('the test tiers', () => {
  it('between them run every vitest project exactly once: npm test, then npm run test:slow', () => {
    const fast = projectsOf(scripts.test);
    const slow = projectsOf(scripts['test:slow']);
    expect(fast.length).toBeGreaterThan(0);
    expect(slow.length).toBeGreaterThan(0);
    expect([...fast, ...slow].sort()).toEqual([...projects].sort());
  });

  it('are both run by test:all and by CI', () => {
    expect(scripts['test:all']).toBe('npm test && npm run test:slow');
    const ci = read('.ci/run');
    expect(ci).toMatch(/^\s*npm test\b/m);
    expect(ci).toMatch(/^\s*npm run test:slow\b/m);
  });
});
