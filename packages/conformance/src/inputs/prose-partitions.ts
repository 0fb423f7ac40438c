import type { KeyChoice } from '../definitions/exchange.js';
import type { Partition, ProsePartition } from './partitions.js';

// Partitions only the contract's prose states, each written once beside the id of the rule that quotes
// its sentence (rules/prose.ts); prose-partitions.test.ts fails when a rule id here names no rule.

/**
 * The words the oracle's sequence of what real clients send ends its search terms with, each where the term is
 * found: in the middle of a filename (`Annual <token>namemiddle report nameend.pdf`), at its end, inside a word
 * of the text (`pre<token>textinword`). A term tells nothing of where it is found, so these words tell it.
 */
export const SEARCH_FOUND_WORDS = { nameMiddle: 'namemiddle', nameEnd: 'nameend.pdf', textInWord: 'textinword' } as const;
const CLIENTS = 'the oracle’s sequence of what real clients send';

/** Partitions of the free-text `search` term that its parameter's description states. */
export function searchPartitions(token: string): ProsePartition[] {
  return [
    // "contains the term": a search that looks only at a name's start or a word's start misses these.
    {
      id: 'found: in the middle of a filename',
      source: 'list.search',
      drawnBy: CLIENTS,
      holds: (v) => v.endsWith(SEARCH_FOUND_WORDS.nameMiddle),
    },
    {
      id: 'found: at the end of a filename',
      source: 'list.search',
      drawnBy: CLIENTS,
      holds: (v) => v.endsWith(SEARCH_FOUND_WORDS.nameEnd),
    },
    {
      id: 'found: inside a word of the text',
      source: 'list.search',
      drawnBy: CLIENTS,
      holds: (v) => v.endsWith(SEARCH_FOUND_WORDS.textInWord),
    },
    {
      id: 'alphabet: NUL',
      source: 'list.search-no-nul',
      value: `${token}\u0000`,
      holds: (v) => v.includes('\u0000'),
    },
    {
      id: 'alphabet: wildcard or regular-expression characters',
      source: 'list.search-literal',
      value: `${token}%_*.`,
      holds: (v) => /[%_*?.[\]()^$\\|+]/.test(v),
    },
    {
      id: 'alphabet: accents and other marks',
      source: 'list.search-keeps-marks',
      value: `${token}é`,
      holds: (v) => /\p{M}|[\u00c0-\u024f]/u.test(v),
    },
    {
      id: 'alphabet: a character full case folding expands',
      source: 'list.search-case-folding',
      value: `${token}ß`,
      holds: (v) => /[\u00df\u0130\u1e9e\ufb00-\ufb06]/u.test(v),
    },
  ];
}

/** The visible ASCII characters that are neither letters nor digits: each a kind a request id may hold. */
const PUNCTUATION = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => !/[A-Za-z0-9]/.test(c));
const LETTERS_AND_DIGITS = [/[A-Z]/, /[a-z]/, /[0-9]/];
export const EVERY_VISIBLE_ASCII_KIND = 'alphabet: every visible ASCII kind';

/** The partition of `X-Request-Id` that "1-200 visible ASCII characters" states, with every kind `pattern` lets it hold. */
export function requestIdPartitions(token: string, pattern: RegExp | undefined): ProsePartition[] {
  // Every sign besides letters and digits: a header or log parser may cut an id at `;`, `,`, `=` or a quote.
  const signs = PUNCTUATION.filter((c) => !pattern || pattern.test(c));
  return [
    {
      id: EVERY_VISIBLE_ASCII_KIND,
      source: 'request-id.echoed',
      value: `${token}AZaz09${signs.join('')}`,
      holds: (v) => LETTERS_AND_DIGITS.every((kind) => kind.test(v)) && signs.every((c) => v.includes(c)),
    },
  ];
}

/** The free-text parameters the prose gives partitions of their own, by name. */
export const PROSE_PARAMETERS: Record<string, (token: string) => ProsePartition[]> = { search: searchPartitions };

/** The key partition only another tenant's key (`--second-api-key`) reaches. */
export const OTHER_TENANT_KEY = "key: another tenant's key";

/** The partitions of the API key the request carries: the security scheme's header and the tenancy sentences. */
export const KEY_PARTITIONS: ReadonlyArray<Partition & { holds(key: KeyChoice): boolean }> = [
  { id: "key: the run's key", source: 'auth.header', drawnBy: 'every scenario', holds: (k) => k === 'primary' },
  {
    id: OTHER_TENANT_KEY,
    source: 'tenancy.own-documents',
    drawnBy: 'the tenancy scenarios, the sequences',
    holds: (k) => k === 'secondary',
  },
  { id: 'key: absent', source: 'auth.checked-first', drawnBy: 'the auth scenarios, the sequences', holds: (k) => k === 'none' },
  {
    id: 'key: unknown',
    source: 'auth.checked-first',
    drawnBy: 'the auth scenarios, the sequences',
    holds: (k) => typeof k === 'object' && 'literal' in k,
  },
  {
    id: "key: a near miss of the run's key",
    source: 'auth.header',
    drawnBy: 'the auth scenarios',
    holds: (k) => typeof k === 'object' && 'variant' in k,
  },
  {
    id: 'key: in another place than the header',
    source: 'auth.header',
    drawnBy: 'the auth scenarios',
    holds: (k) => typeof k === 'object' && 'misplaced' in k,
  },
];

/** A query parameter the contract does not list: ignored, as the list operation's description says. */
export const UNKNOWN_PARAMETER: Partition = {
  id: 'presence: one sent',
  source: 'list.unknown-params-ignored',
  drawnBy: 'a list with a cache-buster',
};

/** The rule ids every prose partition names (for the test that they all exist). */
export function prosePartitionSources(): string[] {
  return [...searchPartitions('t'), ...requestIdPartitions('t', undefined), ...KEY_PARTITIONS, UNKNOWN_PARAMETER].map((p) => p.source);
}
