/**
 * Authentication: the credentials each operation requires, read through the schemes' definitions (type, where
 * and under what name a key goes), so renaming a scheme changes nothing and renaming its header breaks.
 */
import { type DiffSink, defineRules } from './model.js';
import { isNode, type Node, type Resolve } from './normalise.js';
import type { OperationPair } from './paths.js';

export const SECURITY_RULES = defineRules({
  requirementChanged: {
    id: 'api-security-requirement-changed',
    severity: 'breaking',
    description:
      'HEAD requires credentials a client of BASE does not send (a scheme added, or a key moved to another header or place), so its requests are refused.',
    implementer: 'Require and read the credentials HEAD names.',
  },
  alternativeAdded: {
    id: 'api-security-alternative-added',
    severity: 'compatible',
    description: 'HEAD accepts credentials of one more kind (or none); clients of BASE still send what BASE required.',
    implementer: 'Accept the new kind of credentials.',
  },
});

/** What a client must send for a scheme: `apiKey header x-api-key`, `http bearer`, ... */
function describeScheme(scheme: unknown): string {
  if (!isNode(scheme)) return 'unknown';
  if (scheme.type === 'apiKey') {
    const name = String(scheme.name);
    return `apiKey ${String(scheme.in)} ${scheme.in === 'header' ? name.toLowerCase() : name}`;
  }
  if (scheme.type === 'http') return `http ${String(scheme.scheme).toLowerCase()}`;
  return String(scheme.type);
}

/** An operation's accepted credentials: one set of scheme descriptions per alternative (`[]` is anonymous). */
function alternatives(document: Node, operation: Node, resolve: Resolve): string[][] {
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : [];
  const components = isNode(document.components) ? document.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  const out = requirements.filter(isNode).map((req) =>
    Object.keys(req)
      .map((name) => describeScheme(resolve(schemes[name])))
      .sort(),
  );
  // No requirement at all is anonymous access.
  return out.length === 0 ? [[]] : out;
}

/** Compares the credentials a pair of operations accept. */
export function compareSecurity(
  sink: DiffSink,
  documents: { base: Node; head: Node },
  resolve: { base: Resolve; head: Resolve },
  { base, head }: OperationPair,
): void {
  const b = alternatives(documents.base, base.operation, resolve.base);
  const h = alternatives(documents.head, head.operation, resolve.head);
  const text = (alt: string[]) => (alt.length === 0 ? 'none' : alt.join(' + '));
  // A client of BASE sends one of BASE's alternatives; HEAD must take it, by an alternative needing no more.
  if (b.some((alt) => !h.some((other) => other.every((s) => alt.includes(s))))) {
    // One change names both sides; HEAD's new alternatives are what replaced BASE's, not additions.
    sink.report(SECURITY_RULES.requirementChanged, `${head.label} security`, { base: b.map(text), head: h.map(text) });
    return;
  }
  const known = new Set(b.map(text));
  for (const alt of h)
    if (!known.has(text(alt))) sink.report(SECURITY_RULES.alternativeAdded, `${head.label} security`, { head: text(alt) });
}
