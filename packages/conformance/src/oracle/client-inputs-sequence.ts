import { type FileSpec, type Op, plainFile } from './ops.js';

// The oracle's fixed sequence of what real clients send, each block an input class of the partition
// catalogue that random draws reach only now and then: sent on every run, each answer compared with the
// reference core's, so a service that mishandles one of them differs on every run, not on a lucky seed.

const upload = (files: FileSpec[]): Op => ({
  kind: 'upload',
  tenant: 0,
  auth: 'own',
  files,
  count: 'drawn',
  idempotency: null,
  requestId: null,
});
const get = (doc: number): Op => ({ kind: 'get', tenant: 0, auth: 'own', doc: { doc, spelling: 0 }, requestId: null });
const listByName = (doc: number): Op => ({
  kind: 'list',
  tenant: 0,
  auth: 'own',
  params: [{ param: 0, value: { cut: { doc, from: 'filename', before: 40, after: 40, spelling: 'same' } } }],
  extra: 'none',
  requestId: null,
});

/** A name in decomposed Unicode, as macOS sends it: `e` + U+0301, not the composed `é`. */
const DECOMPOSED: FileSpec = { ...plainFile('text', 'nfd'), before: 'Cafe\u0301 ', after: ' re\u0301sume\u0301' };

/**
 * The sequence (its documents are D1, D2, ... in upload order).
 * @example clientInputsSequence().filter((op) => op.kind === 'upload').length
 */
export function clientInputsSequence(): Op[] {
  return [
    // D1: its name comes back byte for byte, in the upload's answer, the read and a search by it.
    upload([DECOMPOSED]),
    get(0),
    listByName(0),
    // D2 and D3: two parts of one name are two documents, both found by it.
    upload([plainFile('text', 'same'), plainFile('text', 'same')]),
    get(1),
    get(2),
    listByName(1),
    // A 0-byte part beside good ones: the upload is refused whole (a 0-byte file has no type), nothing stored.
    upload([plainFile('text', 'good'), plainFile('empty', 'empty'), plainFile('text', 'good')]),
    // D4 and D5: each a byte over half the per-file limit, together over it: accepted, as the limit is per file.
    upload([plainFile('over-half-size', 'half'), plainFile('over-half-size', 'half')]),
    listByName(3),
  ];
}
