// The contract's rule on text a client sends: "Text a client sends (a filename, `search`) holds no U+0000
// (NUL): one that does is a `400` (`invalid_request`) naming it". No schema keyword states it (JSON Schema
// has none for "no NUL"), so the texts the prose names are listed here, each with the prose rules
// (rules/prose.ts) that state it there.
import type { BoundaryCase, BoundaryRule } from './boundary-types.js';
import { kebab } from './boundary-types.js';

const NUL = '\u0000';

/** The query parameters the prose names as text, with the rules that forbid a NUL in each. */
const QUERY_TEXT: Readonly<Record<string, readonly string[]>> = { search: ['text.no-nul', 'list.search-no-nul'] };

/**
 * The NUL rule of query parameter `name`, when the contract's prose names it as text, else undefined. A NUL
 * in the middle and at the end: a stack handing the value to C code reads it only up to the NUL.
 * @example queryNulRule('search', ['listDocuments'], 'conformance-run1-boundary')?.cases[0]?.value // 'conformance-run1-boundary-\u0000-k'
 */
export function queryNulRule(name: string, operations: string[], prefix: string): BoundaryRule | undefined {
  const ruleIds = QUERY_TEXT[name];
  if (!ruleIds) return undefined;
  const refused = (label: string, value: string): BoundaryCase => ({
    label,
    value,
    expect: 'refuse',
    code: 'invalid_request',
    profile: 'full',
  });
  return {
    checkId: `boundary.${kebab(name)}-nul`,
    ruleIds: [...ruleIds],
    description: `\`${name}\` holding U+0000 (NUL, \`%00\`), in the middle or at the end, is a 400 invalid_request.`,
    location: 'query',
    name,
    operations,
    cases: [refused(`${name} with %00 in the middle`, `${prefix}-${NUL}-k`), refused(`${name} ending in %00`, `${prefix}${NUL}`)],
  };
}

/**
 * The NUL rule of the upload's filename: a name holding one travels only as `filename*` (`%00`), beside a
 * plain fallback `filename`; the NUL sits before the extension, where a reader of C strings cuts the name.
 */
export function filenameNulRule(prefix: string): BoundaryRule {
  return {
    checkId: 'boundary.filename-nul',
    ruleIds: ['text.no-nul', 'upload.filename-no-nul'],
    description: "An upload whose filename holds U+0000 (NUL, sent as `filename*=UTF-8''...%00...`) is a 400 invalid_request.",
    location: 'filename',
    name: 'filename',
    operations: ['uploadDocuments'],
    cases: [
      {
        label: 'a filename* holding %00 before its extension',
        value: `${prefix}-nul${NUL}.pdf`,
        expect: 'refuse',
        code: 'invalid_request',
        profile: 'full',
        via: 'filename*',
      },
    ],
  };
}
