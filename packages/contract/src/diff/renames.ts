/**
 * Components renamed between BASE and HEAD, so prose at `schema:Old` is compared with prose at `schema:New`:
 * a component only BASE has is paired with one only HEAD has when HEAD refers to it from the same place
 * (the same response of the same operation, say), else when their definitions are the same.
 */
import { canonical } from './canonical.js';
import { isNode, type Node, type Resolve } from './normalise.js';

/** Every `$ref` of a document: the path of keys leading to it, and the component it names (`schemas/Document`). */
function references(document: Node): Array<{ at: string[]; target: string }> {
  const out: Array<{ at: string[]; target: string }> = [];
  const walk = (node: unknown, at: string[]) => {
    if (Array.isArray(node)) for (const [i, v] of node.entries()) walk(v, [...at, String(i)]);
    else if (isNode(node)) {
      const ref = node.$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/'))
        out.push({ at, target: ref.slice('#/components/'.length).replace(/~1/g, '/').replace(/~0/g, '~') });
      for (const [k, v] of Object.entries(node)) if (k !== 'examples' && k !== 'example') walk(v, [...at, k]);
    }
  };
  walk(document, []);
  return out;
}

const componentNames = (document: Node) => {
  const components = isNode(document.components) ? document.components : {};
  return new Set(
    Object.entries(components).flatMap(([section, entries]) => (isNode(entries) ? Object.keys(entries).map((n) => `${section}/${n}`) : [])),
  );
};

/**
 * BASE's component names (`schemas/Document`) renamed in HEAD.
 * @example renamedComponents(documents, resolve).get('schemas/Document') // 'schemas/V1Document'
 */
export function renamedComponents(documents: { base: Node; head: Node }, resolve: { base: Resolve; head: Resolve }): Map<string, string> {
  const baseNames = componentNames(documents.base);
  const headNames = componentNames(documents.head);
  const onlyBase = [...baseNames].filter((n) => !headNames.has(n));
  const onlyHead = new Set([...headNames].filter((n) => !baseNames.has(n)));
  const renames = new Map<string, string>();
  const claim = (from: string, to: string) => {
    if (renames.has(from) || !onlyHead.has(to) || !onlyBase.includes(from)) return false;
    renames.set(from, to);
    onlyHead.delete(to);
    return true;
  };
  // Places read under HEAD's names: a place inside a renamed component moves with it.
  const place = (at: string[]) => {
    if (at[0] !== 'components' || at.length < 3) return at.join('/');
    const name = `${at[1]}/${at[2]}`;
    return ['components', ...(renames.get(name) ?? name).split('/'), ...at.slice(3)].join('/');
  };
  const headRefs = new Map(references(documents.head).map(({ at, target }) => [at.join('/'), target]));
  const baseRefs = references(documents.base);
  for (let changed = true; changed; ) {
    changed = false;
    for (const { at, target } of baseRefs) {
      const other = headRefs.get(place(at));
      if (other !== undefined && claim(target, other)) changed = true;
    }
  }
  // What no place pairs: same definition, with its texts first, then without.
  const definition = (d: Node, name: string) => {
    const [section = '', ...rest] = name.split('/');
    const components = isNode(d.components) ? d.components : {};
    return isNode(components[section]) ? (components[section] as Node)[rest.join('/')] : undefined;
  };
  for (const withTexts of [true, false])
    for (const from of onlyBase) {
      const text = withTexts ? JSON.stringify(definition(documents.base, from)) : canonical(definition(documents.base, from), resolve.base);
      const to = [...onlyHead].find(
        (n) =>
          n.split('/')[0] === from.split('/')[0] &&
          (withTexts ? JSON.stringify(definition(documents.head, n)) : canonical(definition(documents.head, n), resolve.head)) === text,
      );
      if (to) claim(from, to);
    }
  return renames;
}
