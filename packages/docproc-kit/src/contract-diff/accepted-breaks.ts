/**
 * The release gate's recorded decisions: a breaking change passes only when HEAD moves the base path to a
 * new major version (`/api/v1` to `/api/v2`), or when packages/contract/ACCEPTED-BREAKS.md (or the file
 * `--accepted-breaks` names) holds an entry for its rule and location, with why and when it was decided.
 */
import { readFileSync } from 'node:fs';
import type { Change } from '@docproc-kit/contract/diff';
import { ContractSourceError } from './git-contract.js';

/** One recorded decision to break clients of the released contract. */
export interface AcceptedBreak {
  rule: string;
  location: string;
  why: string;
  /** `YYYY-MM-DD`. */
  date: string;
}

/** The cells of a Markdown table row (`| a | b |`), `\|` kept as a bar and code spans unwrapped. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) =>
      cell
        .trim()
        .replace(/\\\|/g, '|')
        .replace(/^`(.*)`$/, '$1'),
    );
}

/**
 * The entries of an accepted-breaks file: the rows of its table whose header is `Rule | Location | Why | Date`.
 * A row missing a cell, or with a date that is not `YYYY-MM-DD`, is refused with its line number.
 * @example parseAcceptedBreaks(readFileSync('packages/contract/ACCEPTED-BREAKS.md', 'utf8'), 'ACCEPTED-BREAKS.md')
 */
export function parseAcceptedBreaks(text: string, file: string): AcceptedBreak[] {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => /^\|?\s*rule\s*\|\s*location\s*\|\s*why\s*\|\s*date\s*\|?\s*$/i.test(line.trim()));
  if (header < 0) throw new ContractSourceError(`${file} has no table with the header | Rule | Location | Why | Date |`);
  const entries: AcceptedBreak[] = [];
  for (let i = header + 2; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
    const [rule = '', location = '', why = '', date = '', ...extra] = cells(lines[i]!);
    const where = `${file}:${i + 1}`;
    if (extra.length > 0 || !rule || !location || !why)
      throw new ContractSourceError(`${where}: an entry needs a rule, a location, why and a date`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)))
      throw new ContractSourceError(`${where}: the date must be YYYY-MM-DD, not ${JSON.stringify(date)}`);
    entries.push({ rule, location, why, date });
  }
  return entries;
}

/** Reads an accepted-breaks file; an unreadable one is a usage error. */
export function readAcceptedBreaks(file: string): AcceptedBreak[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ContractSourceError(`cannot read --accepted-breaks ${file}: ${(error as Error).message}`);
  }
  return parseAcceptedBreaks(text, file);
}

/** The major version of a contract's base path (`/api/v1/...` is 1), when every path carries the same one. */
export function basePathMajor(document: Record<string, unknown>): number | undefined {
  const paths = Object.keys((document.paths as Record<string, unknown> | undefined) ?? {});
  const majors = new Set(paths.map((path) => /^\/api\/v(\d+)(?:\/|$)/.exec(path)?.[1]));
  const [only] = majors;
  return majors.size === 1 && only !== undefined ? Number(only) : undefined;
}

/** Why a breaking change passes the gate, when it does. */
export type Decision = { by: 'version-bump'; from: number; to: number } | { by: 'entry'; entry: AcceptedBreak };

/**
 * The decision that lets `change` break clients of BASE, or undefined: a new major base path accepts every
 * break (a v1 client never calls `/api/v2`), else an entry with the change's rule and location.
 */
export function decisionFor(
  change: Change,
  entries: readonly AcceptedBreak[],
  majors: { base?: number; head?: number },
): Decision | undefined {
  if (majors.base !== undefined && majors.head !== undefined && majors.head > majors.base)
    return { by: 'version-bump', from: majors.base, to: majors.head };
  const entry = entries.find((e) => e.rule === change.rule && e.location === change.location);
  return entry ? { by: 'entry', entry } : undefined;
}
