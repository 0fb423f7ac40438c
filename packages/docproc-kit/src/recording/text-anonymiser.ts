import { createHmac } from 'node:crypto';
import { foldForSearch } from '@docproc-kit/contract/search-folding.js';

/** Replaces the words of texts and filenames by generated words of the same lengths and scripts. */
export interface Redactor {
  /** Learns the words of a text that must never come out of the redactor (call for every text first). */
  avoid(text: string): void;
  /** The text with each word and number replaced; spaces, punctuation and line breaks kept. */
  text(text: string): string;
  /** The filename's stem replaced as a text is, its extension kept. */
  filename(name: string): string;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

// The letters generated words are drawn from, by script; a letter of any other script becomes a Latin one.
const SCRIPTS: Array<{ test: RegExp; letters: string[] }> = [
  { test: /\p{Script=Latin}/u, letters: [...'abcdefghijklmnopqrstuvwxyz'] },
  { test: /\p{Script=Cyrillic}/u, letters: [...'абвгдежзийклмнопрстуфхцчшщыэюя'] },
  { test: /\p{Script=Greek}/u, letters: [...'αβγδεζηθικλμνξοπρστυφχψω'] },
  { test: /\p{Script=Arabic}/u, letters: [...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي'] },
  { test: /\p{Script=Hebrew}/u, letters: [...'אבגדהוזחטיכלמנסעפצקרשת'] },
  { test: /\p{Script=Han}/u, letters: range(0x4e00, 0x9fa5) },
  { test: /\p{Script=Hiragana}/u, letters: range(0x3042, 0x3093) },
  { test: /\p{Script=Katakana}/u, letters: range(0x30a2, 0x30f3) },
  { test: /\p{Script=Hangul}/u, letters: range(0xac00, 0xd7a3) },
  { test: /\p{Script=Devanagari}/u, letters: [...'कखगघचछजझटठडढणतथदधनपफबभमयरलवशसह'] },
  { test: /\p{Script=Thai}/u, letters: [...'กขคงจฉชซญดตถทธนบปผพฟภมยรลวสหอฮ'] },
];
const DIGITS = [...'0123456789'];
const LATIN = SCRIPTS[0]!.letters;

// A word: letters (with their combining marks) of one script, or a run of digits.
const WORD = /[\p{L}\p{M}\p{Nd}]+/gu;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

function alphabetOf(char: string): string[] | undefined {
  if (DIGIT.test(char)) return DIGITS;
  if (!LETTER.test(char)) return undefined;
  return SCRIPTS.find((script) => script.test.test(char))?.letters ?? LATIN;
}

/** Splits a run of word characters where the script (or letters/digits) changes; a mark stays with its letter. */
function pieces(run: string): Array<{ text: string; letters: string[] }> {
  const out: Array<{ text: string; letters: string[] }> = [];
  for (const char of run) {
    const letters = alphabetOf(char);
    const last = out.at(-1);
    if (last && (letters === undefined || letters === last.letters)) last.text += char;
    else out.push({ text: char, letters: letters ?? LATIN });
  }
  return out;
}

/**
 * A redactor keyed by `seed`: the same seed gives the same words, and the same word (whatever its case)
 * the same generated word everywhere, so a search for a generated word finds every document that had the
 * original, and a recording redacted twice with one seed is the same file. No generated word is one of the
 * words it was told to avoid. Without the seed the originals cannot be recomputed from the output.
 * @example const r = createRedactor('s3cret'); r.avoid(text); r.text('Sourdough 4.50'); // e.g. 'Kqbwmzfta 7.19'
 */
export function createRedactor(seed: string): Redactor {
  const originals = new Set<string>();
  const generated = new Map<string, string[]>();

  const draw = (folded: string, letters: string[], length: number): string[] => {
    for (let round = 0; ; round++) {
      const chars: string[] = [];
      for (let block = 0; chars.length < length; block++) {
        const bytes = createHmac('sha256', seed).update(`${round}\u0000${block}\u0000${folded}`).digest();
        for (let i = 0; i + 1 < bytes.length && chars.length < length; i += 2) chars.push(letters[bytes.readUInt16BE(i) % letters.length]!);
      }
      // A word can be drawn again only so often: a one-letter alphabet of originals would never end.
      if (!originals.has(foldForSearch(chars.join(''))) || round >= 50) return chars;
    }
  };

  const replace = (piece: { text: string; letters: string[] }): string => {
    const folded = foldForSearch(piece.text);
    const chars = [...piece.text];
    const key = `${chars.length}\u0000${folded}`;
    let drawn = generated.get(key);
    if (!drawn) {
      drawn = draw(folded, piece.letters, chars.length);
      generated.set(key, drawn);
    }
    // Each letter keeps its case, so a heading stays a heading.
    return chars.map((char, i) => (char !== char.toLowerCase() ? drawn[i]!.toUpperCase() : drawn[i]!)).join('');
  };

  const text = (input: string) => input.replace(WORD, (run) => pieces(run).map(replace).join(''));
  return {
    avoid(input) {
      for (const [run] of input.matchAll(WORD)) for (const piece of pieces(run)) originals.add(foldForSearch(piece.text));
    },
    text,
    filename(name) {
      const dot = name.lastIndexOf('.');
      return dot > 0 ? `${text(name.slice(0, dot))}${name.slice(dot)}` : text(name);
    },
  };
}
