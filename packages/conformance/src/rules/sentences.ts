/**
 * Every sentence the contract writes in a description, and which prose rule quotes it: the mechanical half
 * of the trace (rules.test.ts requires each sentence to be quoted by a rule, or listed in
 * sentences-baseline.txt with why it is not one a check can test).
 */
import { contractDescriptions, normalise } from './contract-text.js';

type Node = Record<string, unknown>;

/**
 * A description cut into sentences: code blocks and headings dropped, whitespace collapsed, a bullet
 * item always starting a sentence, and a sentence ending at `.`, `!` or `?` before a capital, a digit, a
 * code span or a bullet (so `e.g. a UUID` stays one).
 * @example sentencesOf('Defaults to 20. Larger values are a `400`.') // ['Defaults to 20.', 'Larger values are a `400`.']
 */
export function sentencesOf(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?```/g, ' ')
    .split('\n')
    .filter((line) => !/^\s*#{1,6}\s/.test(line))
    .map((line) => line.replace(/^\s*- /, '\u0000'))
    .join('\n');
  return prose
    .split('\u0000')
    .flatMap((item) => normalise(item).split(/(?<=[.!?])\s+(?=[A-Z0-9`"(*İ])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** One sentence of the contract and where it is written. */
export interface ContractSentence {
  where: string;
  sentence: string;
}

/** Every sentence of every description of `document`, in document order, each once per place. */
export function contractSentences(document: Node): ContractSentence[] {
  const seen = new Set<string>();
  return contractDescriptions(document)
    .flatMap(({ where, text }) => sentencesOf(text).map((sentence) => ({ where, sentence })))
    .filter(({ where, sentence }) => {
      const key = `${where}\u0000${sentence}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

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

/** A sentence listed in sentences-baseline.txt, with why no rule quotes it. */
export interface ListedSentence {
  where: string;
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

/** How the contract's sentences are traced: how many, how many a rule quotes, and the rest as listed. */
export interface SentenceTrace {
  total: number;
  quoted: number;
  listed: ListedSentence[];
}
