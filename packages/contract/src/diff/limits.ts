/**
 * The contract's `x-` extensions: its limits (`x-default-limits: { max_files: 20 }`) count as much as its
 * schemas. A number under a `max`/`limit` name bounds what a client may send, a `min` one from below; any
 * other extension that changes is a warning, as only its readers know what it means.
 */
import { type DiffSink, defineRules } from './model.js';
import { isNode, type Node } from './normalise.js';

export const LIMIT_RULES = defineRules({
  limitDecreased: {
    id: 'x-limit-decreased',
    severity: 'breaking',
    description:
      'HEAD lowers (or sets) a limit on what a client sends, so a request BASE accepted (one more file, a larger one) is refused.',
  },
  limitIncreased: {
    id: 'x-limit-increased',
    severity: 'compatible',
    description: 'HEAD raises (or drops) a limit on what a client sends; every request of BASE stays within it.',
    implementer: 'Accept requests up to the new limit.',
  },
  minimumIncreased: {
    id: 'x-minimum-increased',
    severity: 'breaking',
    description: 'HEAD raises (or sets) a minimum on what a client sends, so a request BASE accepted is refused.',
  },
  minimumDecreased: {
    id: 'x-minimum-decreased',
    severity: 'compatible',
    description: 'HEAD lowers (or drops) a minimum on what a client sends.',
    implementer: 'Accept requests down to the new minimum.',
  },
  extensionChanged: {
    id: 'x-extension-changed',
    severity: 'warning',
    description: 'An extension of the contract changed; what it means is up to the tools reading it, which may now behave differently.',
    implementer: 'Follow the extension as HEAD writes it.',
  },
});

const R = LIMIT_RULES;
const UPPER = /max|limit|most/i;
const LOWER = /min|least/i;

function compareValue(sink: DiffSink, location: string, key: string, base: unknown, head: unknown): void {
  if (isNode(base) && isNode(head)) {
    for (const name of new Set([...Object.keys(base), ...Object.keys(head)]))
      compareValue(sink, `${location}.${name}`, name, base[name], head[name]);
    return;
  }
  if (JSON.stringify(base) === JSON.stringify(head)) return;
  const number = (v: unknown) => typeof v === 'number' || v === undefined;
  if (number(base) && number(head) && (UPPER.test(key) || LOWER.test(key))) {
    const [b, h] = [base as number | undefined, head as number | undefined];
    if (UPPER.test(key))
      sink.report(h !== undefined && (b === undefined || h < b) ? R.limitDecreased : R.limitIncreased, location, { base: b, head: h });
    else
      sink.report(h !== undefined && (b === undefined || h > b) ? R.minimumIncreased : R.minimumDecreased, location, { base: b, head: h });
    return;
  }
  sink.report(R.extensionChanged, location, { base, head });
}

/** Compares the `x-` keys of one place of both contracts (the document, an operation, a parameter, a media type). */
export function compareExtensions(sink: DiffSink, location: string, base: Node, head: Node): void {
  const keys = new Set([...Object.keys(base), ...Object.keys(head)].filter((k) => k.startsWith('x-')));
  for (const key of keys) compareValue(sink, `${location} ${key}`, key, base[key], head[key]);
}
