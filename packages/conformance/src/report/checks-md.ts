import { ALLOWED_DIFFERENCES } from '../checks/differential.js';
import { CHECK_AREAS } from '../definitions/areas.js';
import type { AnyCheck } from '../definitions/check.js';
import type { Proofs, RuleRow } from '../rules/matrix.js';
import type { SentenceTrace } from '../rules/sentences.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const ids = (list: readonly string[]) => (list.length ? list.map((x) => `\`${x}\``).join(', ') : '—');

function proofCell(id: string, proofs: Proofs): string {
  const mutants = proofs.mutants.get(id) ?? [];
  const unit = proofs.unitTests.get(id);
  const all = [...mutants.map((m) => `\`${m}\``), ...(unit ? [`unit test`] : [])];
  return all.length ? all.join(', ') : '—';
}

/**
 * Renders CHECKS.md: one table per area (id, profile, what a pass proves, what proves it can fail), then
 * the contract's rules traced to their checks and proofs, gaps first.
 * @example writeFileSync('packages/conformance/CHECKS.md', renderChecksMarkdown(catalog, matrix, proofs));
 */
export function renderChecksMarkdown(
  catalog: readonly AnyCheck[],
  matrix: readonly RuleRow[],
  proofs: Proofs,
  sentences?: SentenceTrace,
): string {
  const gaps = matrix.filter((r) => r.gap);
  const prose = matrix.filter((r) => r.rule.kind === 'prose');
  const schema = matrix.filter((r) => r.rule.kind === 'schema');
  const out = [
    '# Conformance checks',
    '',
    '<!-- Generated from packages/conformance/src/checks/, src/rules/ and proofs/ by `npx tsx --conditions=docproc-source packages/conformance/scripts/write-checks-md.ts`; do not edit by hand. -->',
    '',
    'Each check has a stable id (reports, JUnit files and CI history key on it) and runs in the `contract`',
    'profile (stateless-safe: it passes against a mock such as `docproc mock`) or only in `full` (stateful',
    'behaviour: uploads that are read back, processing, retries). A check a target gives no occasion for is',
    'reported as *not exercised*, never as passed. "Proven by" names the broken servers (mutants,',
    '`packages/conformance/proofs/`) the check fails, or the unit test that makes it fail. A rule of the contract',
    "counts as proven only by a broken server: a unit test proves a check's judge, not that a server breaking the rule is caught.",
    '',
    `${catalog.length} checks: ${catalog.filter((c) => c.profile === 'contract').length} in both profiles, ${catalog.filter((c) => c.profile === 'full').length} in \`full\` only. ` +
      `${matrix.length} rules of the contract (${prose.length} stated in prose, ${schema.length} schema constraints), ${gaps.length} of them gaps.`,
  ];
  for (const [area, title] of Object.entries(CHECK_AREAS)) {
    const rows = catalog.filter((c) => c.area === area);
    if (rows.length === 0) continue;
    out.push('', `## ${title}`, '', '| Id | Profile | What a pass proves | Proven by |', '|---|---|---|---|');
    for (const c of rows) out.push(`| \`${c.id}\` | ${c.profile} | ${cell(c.description)} | ${proofCell(c.id, proofs)} |`);
    if (area === 'oracle')
      out.push(
        '',
        'What a deployment may answer otherwise than the reference core, because the contract lets it (`packages/conformance/src/checks/differential.ts`):',
        '',
        ...ALLOWED_DIFFERENCES.map((a) => `- ${a}`),
      );
  }
  const unknown = catalog.filter((c) => !(c.area in CHECK_AREAS));
  if (unknown.length) throw new Error(`checks in areas CHECKS.md has no title for: ${unknown.map((c) => c.id).join(', ')}`);

  out.push(
    '',
    '## Rules of the contract',
    '',
    'Every normative statement of `packages/contract/openapi/openapi.yaml`, traced to the checks that test it and to what proves those',
    'checks. Prose rules are listed by hand with the words they quote (`packages/conformance/src/rules/prose.ts`; a test fails when a',
    'quote no longer appears in the contract); schema rules are enumerated from the document itself',
    '(`packages/conformance/src/rules/schema-rules.ts`), so none is forgotten. A check declares the rules it covers beside its',
    'definition (`rules: [...]`; `@response-body` covers every validated constraint of a response schema).',
    '',
    '### Gaps',
    '',
    'Rules with no check, or whose checks no mutant built for the rule fails. `packages/conformance/src/rules/gaps-baseline.txt` holds this list and',
    '`packages/conformance/src/rules/rules.test.ts` fails when it grows (or shrinks without the baseline following).',
    '',
  );
  if (gaps.length === 0) out.push('None.');
  else {
    out.push('| Rule | Gap | Why | The contract says |', '|---|---|---|---|');
    for (const r of gaps)
      out.push(
        `| \`${r.rule.id}\` | ${r.gap} | ${cell(r.rule.unobservable ?? (r.gap === 'no mutant' ? `checked by ${r.checks.join(', ')}, but no broken server built for it` : 'not checked yet'))} | ${cell(r.rule.text)} |`,
      );
  }
  if (sentences) {
    const kind = (why: string) => /^\w+/.exec(why)?.[0] ?? '';
    const count = (k: string) => sentences.listed.filter((l) => kind(l.why) === k).length;
    const open = sentences.listed.filter((l) => ['gap', 'unobservable'].includes(kind(l.why)));
    out.push(
      '',
      '### Clauses no rule quotes',
      '',
      `The contract's descriptions hold ${sentences.total} sentences, cut into ${sentences.clauses} clauses (at \`;\`, at \`:\` before a space, and at a comma before`,
      `\`and\`, \`but\` or \`so\`). A clause is traced only when the quotes of prose rules above hold every word of it (a quote of part of a`,
      `clause traces nothing): ${sentences.quoted} are. The other ${sentences.listed.length} are listed in \`packages/conformance/src/rules/sentences-baseline.txt\``,
      `with why: ${count('informative')} informative (no requirement on an answer), ${count('restates')} restating rules that have checks,`,
      `${count('unobservable')} unobservable and ${count('gap')} ${count('gap') === 1 ? 'gap' : 'gaps'} (below). \`rules.test.ts\` fails on a clause neither quoted nor`,
      'listed, on a listed one a rule now quotes (the list may only shrink), and on a "restates" naming a rule no check tests.',
      '',
      '| Where | The contract says | Why no check |',
      '|---|---|---|',
    );
    for (const l of open) out.push(`| \`${l.where}\` | ${cell(l.sentence)} | ${cell(l.why)} |`);
  }
  const table = (rows: readonly RuleRow[]) => {
    out.push('| Rule | The contract says | Checks | Proven by |', '|---|---|---|---|');
    for (const r of rows)
      out.push(
        `| \`${r.rule.id}\` | ${cell(r.rule.text)} | ${ids(r.checks)} | ${r.proofs.length ? r.proofs.map((p) => `\`${p}\``).join(', ') : '—'} |`,
      );
  };
  out.push('', '### Stated in prose', '');
  table(prose);
  out.push('', '### Schema constraints', '');
  table(schema);
  return `${out.join('\n')}\n`;
}
