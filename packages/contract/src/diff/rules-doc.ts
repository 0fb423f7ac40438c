/** The rule list as docs/contract.md shows it, generated from the rules themselves (rules-doc.test.ts keeps the doc in step). */
import { RULE_AREAS } from './rules.js';

/** The markers around the generated list in docs/contract.md. */
export const RULES_DOC_START =
  '<!-- diff-rules:start (generated from DIFF_RULES; rules-doc.test.ts fails when it differs, UPDATE_DOCS=1 rewrites it) -->';
export const RULES_DOC_END = '<!-- diff-rules:end -->';

/**
 * The rules as Markdown: one table per area, a row per rule (id, severity, why).
 * @example diffRulesMarkdown().includes('| `api-operation-removed` | breaking |') // true
 */
export function diffRulesMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return RULE_AREAS.map(({ area, rules }) =>
    [
      `**${area}**`,
      '',
      '| Rule | Severity | Why |',
      '|---|---|---|',
      ...rules.map((r) => `| \`${r.id}\` | ${r.severity} | ${cell(r.description)} |`),
    ].join('\n'),
  ).join('\n\n');
}
