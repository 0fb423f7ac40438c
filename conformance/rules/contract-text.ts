/** Resolves a prose rule's `where` to the description it quotes, in a parsed (not dereferenced) contract. */

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const child = (node: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((at, k) => (isNode(at) ? at[k] : undefined), node);

/** Whitespace collapsed, so a quote matches however the YAML wraps its lines. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function property(schema: unknown, name: string): unknown {
  const own = child(schema, 'properties', name);
  if (own !== undefined) return own;
  const branches = child(schema, 'allOf');
  for (const branch of Array.isArray(branches) ? branches : []) {
    const found = property(branch, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The description `where` names (`info`, `op:<operationId>`, `param:<component>`, `schema:<component>[.<property>]`,
 * `response:<component>`, `header:<component>`, `security:<scheme>`), or undefined when there is none.
 * @example descriptionAt(document, 'op:listDocuments')?.includes('newest first') // true
 */
export function descriptionAt(document: Node, where: string): string | undefined {
  const [kind, rest = ''] = where.split(/:(.*)/s) as [string, string?];
  let node: unknown;
  if (kind === 'info') node = child(document, 'info');
  else if (kind === 'op')
    node = Object.values(isNode(document.paths) ? document.paths : {})
      .flatMap((item) => (isNode(item) ? Object.values(item) : []))
      .find((op) => isNode(op) && op.operationId === rest);
  else if (kind === 'schema') {
    const [name, prop] = rest.split('.') as [string, string?];
    const schema = child(document, 'components', 'schemas', name);
    node = prop === undefined ? schema : property(schema, prop);
  } else {
    const section = { param: 'parameters', response: 'responses', header: 'headers', security: 'securitySchemes' }[kind];
    node = section ? child(document, 'components', section, rest) : undefined;
  }
  const description = child(node, 'description');
  return typeof description === 'string' ? normalise(description) : undefined;
}
