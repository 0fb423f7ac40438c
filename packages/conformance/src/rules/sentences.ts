/**
 * Every sentence the contract writes in a description, its clauses, and which prose rules quote them: the
 * mechanical half of the trace (rules.test.ts requires every clause of every sentence to be quoted by a
 * rule, or listed in sentences-baseline.txt with why it is not one a check can test).
 */
import { type ContractSentence, normalise, sentencesOf } from '@docproc-kit/contract/contract-text.js';

/**
 * The ids of the quoted rules (`{ id, where, quote }`) that quote some part of `sentence` at its place:
 * the sentence holds a sentence of the quote, or the whole sentence is in the quote.
 */
export function quotingRules(
  { where, sentence }: ContractSentence,
  rules: ReadonlyArray<{ id: string; where: string; quote: string }>,
): string[] {
  return rules
    .filter((r) => r.where === where)
    .filter((r) => {
      const quote = normalise(r.quote);
      return quote.includes(sentence) || sentencesOf(quote).some((piece) => sentence.includes(piece));
    })
    .map((r) => r.id);
}

/**
 * Where a sentence splits into clauses, outside code spans and parentheses: at `;`, at `:` before a space
 * (what follows explains or lists), and at a comma before `and`, `but` or `so` (the comma that joins two
 * clauses each with its own verb; a list's last item has no comma before its `and` in the contract's style).
 */
const CLAUSE_BREAK = /;\s|:\s|,\s(?=(?:and|but|so)\s)/y;

/** One clause of a sentence: its text, and where it sits in the sentence. */
export interface Clause {
  text: string;
  start: number;
  end: number;
}

/**
 * The clauses of a sentence (see {@link CLAUSE_BREAK}), each trimmed, the joining word kept.
 * @example clausesOf('Defaults to 1; a page past the end returns an empty list.').map((c) => c.text) // ['Defaults to 1', 'a page past the end returns an empty list.']
 */
export function clausesOf(sentence: string): Clause[] {
  const out: Clause[] = [];
  const push = (from: number, to: number) => {
    const raw = sentence.slice(from, to);
    const text = raw.trim();
    if (text) out.push({ text, start: from + raw.indexOf(text), end: from + raw.indexOf(text) + text.length });
  };
  let depth = 0;
  let code = false;
  let start = 0;
  for (let i = 0; i < sentence.length; i++) {
    const c = sentence[i];
    if (c === '`') code = !code;
    else if (code) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      CLAUSE_BREAK.lastIndex = i;
      const match = CLAUSE_BREAK.exec(sentence);
      if (!match) continue;
      push(start, i);
      start = i + match[0].length;
      i = start - 1;
    }
  }
  push(start, sentence.length);
  return out;
}

/** A bullet's bold label ending in `.` (`**Errors.**`), which no quote needs to hold. */
const LABEL = /^\*\*[^*]+\.\*\*\s+/;
/** Words that only join two quoted parts (`... one status and \`search\` keeps ...`): no quote needs to hold them. */
const JOINING: ReadonlySet<string> = new Set(['and', 'or', 'but', 'so', 'then']);

/** Which characters of `sentence` the quotes of rules at its place hold (a quote, or a sentence of one, found in it). */
function coveredBy({ where, sentence }: ContractSentence, rules: ReadonlyArray<{ where: string; quote: string }>): boolean[] {
  const covered = new Array<boolean>(sentence.length).fill(false);
  for (const rule of rules.filter((r) => r.where === where)) {
    const quote = normalise(rule.quote);
    if (quote.includes(sentence)) covered.fill(true);
    for (const piece of [quote, ...sentencesOf(quote)])
      for (let at = sentence.indexOf(piece); at >= 0 && piece.length > 0; at = sentence.indexOf(piece, at + 1))
        covered.fill(true, at, at + piece.length);
  }
  return covered;
}

/**
 * The clauses of a sentence no rule quotes whole: a clause counts as quoted only when the quotes of rules at
 * its place hold every letter and digit of it, so a quote of part of a sentence traces only the clauses it holds.
 * @example untracedClauses({ where: 'info', sentence }, proseRules).map((c) => c.text)
 */
export function untracedClauses(sentence: ContractSentence, rules: ReadonlyArray<{ where: string; quote: string }>): Clause[] {
  const covered = coveredBy(sentence, rules);
  return clausesOf(sentence.sentence).filter((clause) => {
    // A bullet's bold label (`**Errors.**`) and the words joining quoted parts say nothing themselves.
    const from = clause.start + (LABEL.exec(clause.text)?.[0].length ?? 0);
    const words = sentence.sentence.slice(from, clause.end);
    for (const word of words.matchAll(/[\p{L}\p{N}]+/gu)) {
      const at = from + word.index;
      if (JOINING.has(word[0]) || covered.slice(at, at + word[0].length).every(Boolean)) continue;
      return true;
    }
    return false;
  });
}

/** A clause listed in sentences-baseline.txt, with why no rule quotes it. */
export interface ListedSentence {
  where: string;
  /** The clause, as {@link clausesOf} cuts it. */
  sentence: string;
  /** `informative: ...`, `restates <rule ids>`, `unobservable: ...` or `gap: ...`. */
  why: string;
}

/** The lines of sentences-baseline.txt (`<where> | <sentence> | <why>`; `#` starts a comment). */
export function parseSentenceBaseline(text: string): ListedSentence[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [where = '', sentence = '', ...why] = line.split(' | ');
      return { where, sentence, why: why.join(' | ') };
    });
}

/** How the contract's sentences are traced: how many sentences and clauses, how many clauses rules quote, and the rest as listed. */
export interface SentenceTrace {
  total: number;
  clauses: number;
  quoted: number;
  listed: ListedSentence[];
}
