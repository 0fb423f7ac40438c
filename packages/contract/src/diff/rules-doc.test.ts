import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractRoot } from '../paths.js';
import { DIFF_RULES } from './index.js';
import { diffRulesMarkdown, RULES_DOC_END, RULES_DOC_START } from './rules-doc.js';

const docPath = `${contractRoot}../../docs/contract.md`;

describe('docs/contract.md', () => {
  it('lists the diff rules as the code has them', () => {
    const doc = readFileSync(docPath, 'utf8');
    const start = doc.indexOf(RULES_DOC_START);
    const end = doc.indexOf(RULES_DOC_END);
    expect(start, 'the doc has the generated block').toBeGreaterThanOrEqual(0);
    const written = doc.slice(start + RULES_DOC_START.length, end).trim();
    if (process.env.UPDATE_DOCS === '1' && written !== diffRulesMarkdown())
      writeFileSync(docPath, `${doc.slice(0, start + RULES_DOC_START.length)}\n\n${diffRulesMarkdown()}\n\n${doc.slice(end)}`);
    else expect(written, 'run with UPDATE_DOCS=1 to rewrite the block').toBe(diffRulesMarkdown());
  });

  it('says how many rules there are', () => {
    expect(readFileSync(docPath, 'utf8')).toContain(`${DIFF_RULES.length} rules`);
  });
});
