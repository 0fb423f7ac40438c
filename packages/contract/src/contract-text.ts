/**
 * The descriptions of a parsed (not dereferenced) contract, each by where it is written, and their sentences:
 * what the conformance suite's prose rules quote and what the contract diff compares.
 */

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One description of the contract, by the `where` vocabulary of rules/prose.ts (extended to every place). */
export interface Description {
  where: string;
  text: string;
}

function push(into: Description[], where: string, node: unknown): void {
  const description = isNode(node) ? node.description : undefined;
  if (typeof description === 'string') into.push({ where, text: description });
}

function walkSchema(into: Description[], where: string, schema: unknown): void {
  if (!isNode(schema)) return;
  push(into, where, schema);
  for (const [name, property] of Object.entries(isNode(schema.properties) ? schema.properties : {}))
    walkSchema(into, `${where}.${name}`, property);
  if (isNode(schema.items)) walkSchema(into, `${where}.items`, schema.items);
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const branch of Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []) walkSchema(into, where, branch);
}

/**
 * Every description of a parsed (not dereferenced) contract: info, servers, tags, operations and their
 * inline responses, and every component (parameters, headers, security schemes, schemas and their
 * properties, responses).
 * @example contractDescriptions(document).find((d) => d.where === 'op:listDocuments')?.text
 */
export function contractDescriptions(document: Node): Description[] {
  const out: Description[] = [];
  push(out, 'info', document.info);
  for (const [i, server] of (Array.isArray(document.servers) ? document.servers : []).entries()) push(out, `server:${i}`, server);
  for (const tag of Array.isArray(document.tags) ? document.tags : []) push(out, `tag:${(tag as Node).name}`, tag);
  for (const item of Object.values(isNode(document.paths) ? document.paths : {}))
    for (const op of Object.values(isNode(item) ? item : {})) {
      if (!isNode(op) || typeof op.operationId !== 'string') continue;
      push(out, `op:${op.operationId}`, op);
      for (const [status, response] of Object.entries(isNode(op.responses) ? op.responses : {}))
        push(out, `op:${op.operationId}.response:${status}`, response);
    }
  const components = isNode(document.components) ? document.components : {};
  const section = (name: string) => Object.entries(isNode(components[name]) ? (components[name] as Node) : {});
  for (const [name, node] of section('securitySchemes')) push(out, `security:${name}`, node);
  for (const [name, node] of section('parameters')) push(out, `param:${name}`, node);
  for (const [name, node] of section('headers')) push(out, `header:${name}`, node);
  for (const [name, node] of section('schemas')) walkSchema(out, `schema:${name}`, node);
  for (const [name, node] of section('responses')) push(out, `response:${name}`, node);
  return out;
}

/** Whitespace collapsed, so a quote matches however the YAML wraps its lines. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The description `where` names (`info`, `server:<index>`, `tag:<name>`, `op:<operationId>[.response:<status>]`,
 * `param:<component>`, `schema:<component>[.<property>...]`, `response:<component>`, `header:<component>`,
 * `security:<scheme>`), or undefined when there is none.
 * @example descriptionAt(document, 'op:listDocuments')?.includes('newest first') // true
 */
export function descriptionAt(document: Node, where: string): string | undefined {
  const found = contractDescriptions(document).find((d) => d.where === where);
  return found ? normalise(found.text) : undefined;
}

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
