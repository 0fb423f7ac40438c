/**
 * Every constraint the contract states in machine-readable form, enumerated from the parsed document, so
 * that none is forgotten: each keyword of each component schema, parameter and response header, the
 * upload's `x-default-limits` and the security scheme. Ids are stable as long as the contract's names are:
 *
 * - `schema:<Component>[.<property>...].<keyword>` (`items` for array items, `<property>.forbidden` for a
 *   property whose schema is `false`), tagged `@response-body` and/or `@request` by where it is used;
 * - `param:<in>.<name>.<keyword>` for a parameter (its schema followed through `$ref`), tagged `@request`;
 * - `header:<Name>.<keyword>` for a response header (`required` included), tagged `@response-header`;
 * - `limit:<field>` for `x-default-limits`, `security:<scheme>` for the security scheme.
 *
 * A `type: string` parameter or header is left out: every value on the wire is a string, so it says nothing.
 */

/** One machine-readable constraint of the contract. */
export interface SchemaRule {
  id: string;
  /** The constraint as the contract states it, e.g. `maxLength: 255`. */
  text: string;
  /** Where it applies: `@response-body`, `@response-header`, `@request`. */
  tags: string[];
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords that constrain a value (annotations such as `description` and `example` do not). */
const CONSTRAINTS = [
  'type',
  'format',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'required',
  'default',
  'additionalProperties',
] as const;

function resolve(document: Node, node: unknown): unknown {
  const ref = isNode(node) ? node.$ref : undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (isNode(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
  return resolve(document, target);
}

const refName = (node: unknown) => (isNode(node) && typeof node.$ref === 'string' ? node.$ref.split('/').pop() : undefined);

/** The component schemas a node refers to, transitively. */
function reachable(document: Node, start: unknown, into = new Set<string>()): Set<string> {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isNode(node)) return;
    const name = refName(node);
    if (name !== undefined && typeof node.$ref === 'string' && node.$ref.startsWith('#/components/schemas/')) {
      if (into.has(name)) return;
      into.add(name);
      visit(resolve(document, node));
    } else if (name !== undefined) visit(resolve(document, node));
    else for (const value of Object.values(node)) visit(value);
  };
  visit(start);
  return into;
}

function describe(keyword: string, value: unknown): string {
  return `${keyword}: ${JSON.stringify(value)}`;
}

/** The constraints of one schema node and everything inline below it (not through `$ref`). */
function walkSchema(node: unknown, path: string, tags: string[], out: SchemaRule[], skipStringType = false): void {
  if (!isNode(node) || typeof node.$ref === 'string') return;
  for (const keyword of CONSTRAINTS) {
    if (!(keyword in node)) continue;
    if (keyword === 'type' && skipStringType && node.type === 'string') continue;
    if (keyword === 'additionalProperties' && node.additionalProperties !== false) continue;
    out.push({ id: `${path}.${keyword}`, text: describe(keyword, node[keyword]), tags });
  }
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const branches = node[combinator];
    if (!Array.isArray(branches)) continue;
    out.push({
      id: `${path}.${combinator}`,
      text: `${combinator}: ${branches.map((b) => refName(b) ?? JSON.stringify(b)).join(' | ')}`,
      tags,
    });
    for (const branch of branches) walkSchema(branch, path, tags, out);
  }
  if (Array.isArray(node.allOf)) for (const branch of node.allOf) walkSchema(branch, path, tags, out);
  if (isNode(node.properties)) {
    for (const [name, schema] of Object.entries(node.properties)) {
      if (schema === false) out.push({ id: `${path}.${name}.forbidden`, text: `${name}: false (the property must be absent)`, tags });
      else walkSchema(schema, `${path}.${name}`, tags, out);
    }
  }
  if (node.items !== undefined) walkSchema(node.items, `${path}.items`, tags, out);
}

/**
 * Every machine-readable constraint of a parsed (not dereferenced) contract document.
 * @example schemaRules(load(yamlText)).find((r) => r.id === 'param:query.limit.maximum')?.text // 'maximum: 100'
 */
export function schemaRules(document: Node): SchemaRule[] {
  const out: SchemaRule[] = [];
  const components = isNode(document.components) ? document.components : {};
  const operations = Object.values(isNode(document.paths) ? document.paths : {})
    .filter(isNode)
    .flatMap((item) => Object.values(item).filter((op): op is Node => isNode(op) && typeof op.operationId === 'string'));

  // Which component schemas responses carry, and which requests do.
  const inResponses = new Set<string>();
  const inRequests = new Set<string>();
  for (const op of operations) {
    for (const response of Object.values(isNode(op.responses) ? op.responses : {})) {
      const resolved = resolve(document, response);
      if (isNode(resolved)) reachable(document, resolved.content, inResponses);
    }
    reachable(document, op.requestBody, inRequests);
    reachable(document, op.parameters, inRequests);
  }

  const schemas = isNode(components.schemas) ? components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) {
    const tags = [...(inResponses.has(name) ? ['@response-body'] : []), ...(inRequests.has(name) ? ['@request'] : [])];
    walkSchema(schema, `schema:${name}`, tags, out);
  }

  const parameters = new Map<string, Node>();
  for (const op of operations)
    for (const p of Array.isArray(op.parameters) ? op.parameters : []) {
      const parameter = resolve(document, p);
      if (isNode(parameter)) parameters.set(`${String(parameter.in)}.${String(parameter.name)}`, parameter);
    }
  for (const [key, parameter] of parameters) {
    const schema = resolve(document, parameter.schema);
    walkSchema(schema, `param:${key}`, ['@request'], out, true);
  }

  const headers = new Map<string, Node>();
  for (const op of operations)
    for (const response of Object.values(isNode(op.responses) ? op.responses : {})) {
      const resolved = resolve(document, response);
      const declared = isNode(resolved) && isNode(resolved.headers) ? resolved.headers : {};
      for (const [headerName, header] of Object.entries(declared)) {
        const h = resolve(document, header);
        if (isNode(h)) headers.set(headerName, h);
      }
    }
  for (const [headerName, header] of headers) {
    if (header.required === true) out.push({ id: `header:${headerName}.required`, text: 'required: true', tags: ['@response-header'] });
    walkSchema(resolve(document, header.schema), `header:${headerName}`, ['@response-header'], out, true);
  }

  for (const op of operations) {
    const limits = op['x-default-limits'];
    if (isNode(limits))
      for (const [field, value] of Object.entries(limits))
        out.push({ id: `limit:${field}`, text: describe(field, value), tags: ['@request'] });
  }

  const security = isNode(components.securitySchemes) ? components.securitySchemes : {};
  for (const [name, scheme] of Object.entries(security)) {
    if (isNode(scheme))
      out.push({
        id: `security:${name}`,
        text: `${String(scheme.type)} in ${String(scheme.in)} ${String(scheme.name)}`,
        tags: ['@request'],
      });
  }
  return out;
}
