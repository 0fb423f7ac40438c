/**
 * Reading two parsed contracts the same way before any rule compares them: `$ref`s followed (so a component
 * renamed or moved changes nothing), each operation under the URL a client calls (server path and path
 * template, parameter names blanked), and schemas seen through `allOf` and `oneOf`-with-null.
 */
import { HTTP_METHODS } from '../load-contract.js';

export type Node = Record<string, unknown>;
export const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `$ref` chains within one document; a node without `$ref` is returned as it is. */
export type Resolve = (node: unknown) => unknown;

function pointerTarget(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`cannot compare contracts with external $ref ${JSON.stringify(ref)}: bundle them first`);
  const tokens = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
  let at: unknown = document;
  for (const token of tokens) {
    at = isNode(at) || Array.isArray(at) ? (at as Record<string, unknown>)[token] : undefined;
    if (at === undefined) throw new Error(`$ref ${JSON.stringify(ref)} points at nothing in the document`);
  }
  return at;
}

/**
 * A resolver for one document. A `$ref`'s siblings (3.1 allows them) are laid over its target, except the
 * texts (`description`, `summary`), which say nothing a client can fail on.
 * @example createResolver(doc)({ $ref: '#/components/parameters/Limit' }).name // 'limit'
 */
export function createResolver(document: unknown): Resolve {
  const resolve: Resolve = (node) => {
    const seen = new Set<string>();
    let at = node;
    let siblings: Node = {};
    while (isNode(at) && typeof at.$ref === 'string') {
      if (seen.has(at.$ref)) throw new Error(`$ref ${JSON.stringify(at.$ref)} refers to itself`);
      seen.add(at.$ref);
      const { $ref, description, summary, ...rest } = at;
      siblings = { ...rest, ...siblings };
      at = pointerTarget(document, $ref as string);
    }
    return Object.keys(siblings).length > 0 && isNode(at) ? { ...at, ...siblings } : at;
  };
  return resolve;
}

/** One operation as a client reaches it. */
export interface Operation {
  /** Upper case, as locations print it. */
  method: string;
  /** The URL path a client calls: the server's path then the path template. */
  url: string;
  /** {@link url} with parameter names blanked (`{}`), so renaming a path parameter keeps the operation. */
  key: string;
  /** `METHOD url`, the prefix of every location inside this operation. */
  label: string;
  operation: Node;
  /** Path-item parameters then the operation's (which replace those of the same `in` and name), resolved. */
  parameters: Node[];
}

/** The path part of a server URL (`http://h:1/api/v1` → `/api/v1`), variables filled with their defaults, without a trailing `/`. */
export function serverPath(server: unknown): string {
  if (!isNode(server) || typeof server.url !== 'string') return '';
  const variables = isNode(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = variables[name];
    return isNode(variable) && typeof variable.default === 'string' ? variable.default : '';
  });
  let path = url;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    try {
      path = new URL(url).pathname;
    } catch {
      path = '';
    }
  }
  return path.replace(/\/+$/, '');
}

const firstServer = (...lists: unknown[]) => lists.find((l) => Array.isArray(l) && l.length > 0) as unknown[] | undefined;

/** The parameter's identity: where it goes and its name (header names compared without case). */
export const parameterKey = (p: Node) => `${String(p.in)}.${p.in === 'header' ? String(p.name).toLowerCase() : String(p.name)}`;

/** Every operation of a document, in document order. */
export function operationsOf(document: Node, resolve: Resolve): Operation[] {
  const out: Operation[] = [];
  for (const [path, rawItem] of Object.entries(isNode(document.paths) ? document.paths : {})) {
    const item = resolve(rawItem);
    if (!isNode(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const server = firstServer(operation.servers, item.servers, document.servers)?.[0];
      const url = `${serverPath(server)}${path}`;
      const byKey = new Map<string, Node>();
      for (const raw of [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ]) {
        const p = resolve(raw);
        if (isNode(p)) byKey.set(parameterKey(p), p);
      }
      out.push({
        method: method.toUpperCase(),
        url,
        key: `${method.toUpperCase()} ${url.replace(/\{[^}]*\}/g, '{}')}`,
        label: `${method.toUpperCase()} ${url}`,
        operation,
        parameters: [...byKey.values()],
      });
    }
  }
  return out;
}

/** A schema's types as a set (`integer` kept apart from `number`), or undefined when it does not say. */
export function typesOf(schema: Node): Set<string> | undefined {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type.map(String));
  return undefined;
}

const isNullSchema = (s: unknown) =>
  isNode(s) && (s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null'));

/** Two schemas as one (what `allOf` means for the keywords this diff reads): later keywords win, `required` and `properties` merge. */
function merge(a: Node, b: Node): Node {
  const out: Node = { ...a, ...b };
  if (Array.isArray(a.required) || Array.isArray(b.required))
    out.required = [...new Set([...((a.required as unknown[]) ?? []), ...((b.required as unknown[]) ?? [])])];
  if (isNode(a.properties) || isNode(b.properties)) {
    const properties: Node = { ...(isNode(a.properties) ? a.properties : {}) };
    for (const [name, schema] of Object.entries(isNode(b.properties) ? b.properties : {}))
      properties[name] = name in properties ? { allOf: [properties[name], schema] } : schema;
    out.properties = properties;
  }
  const ta = typesOf(a);
  const tb = typesOf(b);
  if (ta && tb) out.type = [...ta].filter((t) => tb.has(t) || (t === 'integer' && tb.has('number')));
  return out;
}

/**
 * A schema seen one level deep as its keywords: `$ref` followed, `allOf` merged into one, and `oneOf`/`anyOf`
 * of one schema and `null` read as that schema with `null` among its types. Nested schemas stay as written
 * (recursive schemas are flattened only as far as a comparison walks). `true`/`false` stay booleans.
 */
export function flattenSchema(schema: unknown, resolve: Resolve): Node | boolean {
  const resolved = resolve(schema);
  if (typeof resolved === 'boolean') return resolved;
  if (!isNode(resolved)) return true;
  let out: Node = resolved;
  if (Array.isArray(resolved.allOf)) {
    const { allOf, ...rest } = resolved;
    out = rest;
    for (const branch of allOf) {
      const flat = flattenSchema(branch, resolve);
      if (flat === false) return false;
      if (flat !== true) out = merge(out, flat);
    }
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = out[key];
    if (!Array.isArray(branches) || branches.length !== 2 || !branches.some(isNullSchema)) continue;
    const other = flattenSchema(
      branches.find((b) => !isNullSchema(b)),
      resolve,
    );
    if (typeof other === 'boolean') continue;
    const { [key]: _, ...rest } = out;
    const types = typesOf(other);
    out = { ...rest, ...other, ...(types ? { type: [...types, 'null'] } : {}) };
  }
  return out;
}

/** The resolved object a schema's comparison is keyed by (so recursive schemas are walked once per pair). */
export const identityOf = (schema: unknown, resolve: Resolve): unknown => resolve(schema);

/**
 * Throws, naming the side and the place, when a `$ref` anywhere in the document (used or not) points nowhere
 * or outside it: a diff that skipped it could call compatible what no tool can read.
 */
export function checkReferences(document: Node, side: string): void {
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) for (const [i, v] of node.entries()) walk(v, `${at}/${i}`);
    else if (isNode(node)) {
      if (typeof node.$ref === 'string')
        try {
          pointerTarget(document, node.$ref);
        } catch (error) {
          throw new Error(`${side}: ${(error as Error).message} (at ${at || '/'})`);
        }
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(document, '');
}
