import type { Check } from '../checks/index.js';
import { CHECK_AREAS } from '../run/areas.js';

/**
 * Renders CHECKS.md from the catalog: one table per area with id, profile and what a pass proves.
 * @example writeFileSync('conformance/CHECKS.md', renderChecksMarkdown(catalog));
 */
export function renderChecksMarkdown(catalog: readonly Check[]): string {
  const out = [
    '# Conformance checks',
    '',
    '<!-- Generated from conformance/checks/*.ts by `npx tsx conformance/scripts/write-checks-md.ts`; do not edit by hand. -->',
    '',
    'Each check has a stable id (reports, JUnit files and CI history key on it) and runs in the `contract`',
    'profile (stateless-safe: it passes against a mock such as `docproc mock`) or only in `full` (stateful',
    'behaviour: uploads that are read back, processing, retries). A check a target gives no occasion for is',
    'reported as *not exercised*, never as passed.',
    '',
    `${catalog.length} checks: ${catalog.filter((c) => c.profile === 'contract').length} in both profiles, ${catalog.filter((c) => c.profile === 'full').length} in \`full\` only.`,
  ];
  for (const [area, title] of Object.entries(CHECK_AREAS)) {
    const rows = catalog.filter((c) => c.area === area);
    if (rows.length === 0) continue;
    out.push('', `## ${title}`, '', '| Id | Profile | What a pass proves |', '|---|---|---|');
    for (const c of rows) out.push(`| \`${c.id}\` | ${c.profile} | ${c.description.replace(/\|/g, '\\|')} |`);
  }
  const unknown = catalog.filter((c) => !(c.area in CHECK_AREAS));
  if (unknown.length) throw new Error(`checks in areas CHECKS.md has no title for: ${unknown.map((c) => c.id).join(', ')}`);
  return `${out.join('\n')}\n`;
}
