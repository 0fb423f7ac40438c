/** The bundled contract as a fresh parsed document, to edit for a test of the contract diff. */
import { readFileSync } from 'node:fs';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { load } from 'js-yaml';

type Node = Record<string, unknown>;

const text = readFileSync(bundledSpecPath, 'utf8');

/** A fresh copy of the bundled contract as parsed from its YAML (`$ref`s as written), to edit freely. */
export const bundledDocument = (): Node => load(text) as Node;

/**
 * The bundled contract with one edit applied to a fresh copy.
 * @example edited((doc) => delete at(doc, 'paths')['/api/v1/documents/upload_files'])
 */
export function edited(edit: (document: Node) => unknown): Node {
  const document = bundledDocument();
  edit(document);
  return document;
}

/** The object at a `/`-separated path of keys (JSON pointer escaping `~1` for `/`), failing loudly when it is not one. */
export function at(document: Node, pointer: string): Node {
  let node: unknown = document;
  for (const key of pointer.split('/').filter(Boolean)) {
    node = (node as Node)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (typeof node !== 'object' || node === null) throw new Error(`nothing at ${pointer} (stopped at ${key})`);
  }
  return node as Node;
}
