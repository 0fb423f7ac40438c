import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allMutants, mutantRuns } from '@docproc-kit/conformance/proofs/mutant-catalog.js';
import { describe, expect, it } from 'vitest';
import { VITE_REACT_TS_TEMPLATE } from '../packaging/vite-template.js';
import { markdownFiles, slugsOf } from './markdown.js';

// The docs are read before the code: a link that leads nowhere, a script that does not exist or a count the
// code no longer has sends a newcomer the wrong way. These tests read every Markdown file of the repository.
const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = markdownFiles(root);
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** The text outside fenced code blocks (a block's `[x](y)` is code, not a link). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

describe('the Markdown files', () => {
  it('are found (the tests below read them)', () => {
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/architecture.md');
  });

  it.each(docs)('%s: every relative link leads to a file, and every #anchor to a heading', (file) => {
    const broken: string[] = [];
    for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const linked = path === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURIComponent(path));
      if (!existsSync(linked)) {
        broken.push(`${target}: no ${relative(root, linked)}`);
        continue;
      }
      if (anchor !== undefined && linked.endsWith('.md') && !slugsOf(readFileSync(linked, 'utf8')).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${relative(root, linked)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it.each(docs)('%s: every `npm run <script>` it names exists', (file) => {
    const manifests = ['package.json', ...JSON.parse(read('package.json')).workspaces.map((w: string) => `${w}/package.json`)].filter((m) =>
      existsSync(join(root, m)),
    );
    // The browser guide's app is a Vite app of the user's: its scripts are the template's.
    const app = JSON.parse(VITE_REACT_TS_TEMPLATE['package.json']!).scripts as Record<string, string>;
    const scripts = new Set([...manifests.flatMap((m) => Object.keys(JSON.parse(read(m)).scripts ?? {})), ...Object.keys(app)]);
    const missing = [...read(file).matchAll(/npm run (?:-s )?([a-z][\w:.-]*)/g)].map((m) => m[1]!).filter((s) => !scripts.has(s));
    expect(missing).toEqual([]);
  });
});

describe('the numbers the docs repeat from the code', () => {
  const catalog = read('packages/conformance/CHECKS.md').match(/(\d+) checks/)![1];
  const boundaryChecks = new Set(read('packages/conformance/CHECKS.md').match(/`boundary\.[a-z0-9-]+`/g)).size;
  it.each([
    {
      file: 'docs/conformance.md',
      claim: /\((\d+) checks for the bundled contract, generated from the code/,
      truth: () => [catalog],
      source: 'the check count of CHECKS.md (generated from the catalogue)',
    },
    {
      file: 'docs/conformance.md',
      claim: /with no code change\. (\d+) checks for the bundled contract/,
      truth: () => [String(boundaryChecks)],
      source: 'the boundary checks of CHECKS.md (one per constraint the bundled contract states on a request)',
    },
    {
      file: 'README.md',
      claim: /the suite against (\d+) broken servers \(in (\d+) suite runs/,
      truth: () => [String(allMutants.length), String(mutantRuns().length)],
      source: 'the mutant catalogue (proofs/mutant-catalog.ts) and the runs it is grouped into',
    },
  ])('$file says what $source says', ({ file, claim, truth }) => {
    const said = read(file).match(claim);
    expect(said, `${file} no longer says ${claim}`).not.toBeNull();
    expect(said!.slice(1)).toEqual(truth());
  });
});
