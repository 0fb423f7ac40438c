import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { refused } from '../inputs/pairwise.js';
import { partitionCatalog } from '../inputs/partition-catalog.js';
import { SEARCH_FOUND_WORDS } from '../inputs/prose-partitions.js';
import { spellingNumber } from './inputs.js';
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
const byToken: Op = {
  kind: 'list',
  tenant: 0,
  auth: 'own',
  // The sequence's token alone: every document of the sequence, in the target's order.
  params: [{ param: 0, value: { cut: { doc: 0, from: 'filename', before: 0, after: 0, spelling: 'same' } } }],
  extra: 'none',
  requestId: null,
};
const get = (doc: number, spelling = 0): Op => ({ kind: 'get', tenant: 0, auth: 'own', doc: { doc, spelling }, requestId: null });
const listByName = (doc: number): Op => ({
  kind: 'list',
  tenant: 0,
  auth: 'own',
  params: [{ param: 0, value: { cut: { doc, from: 'filename', before: 40, after: 40, spelling: 'same' } } }],
  extra: 'none',
  requestId: null,
});

/** A search for the term cut from `doc`'s name or text: the token and `after` characters after it (to its end, for a large one). */
const search = (doc: number, from: 'filename' | 'content', after: number): Op => ({
  kind: 'list',
  tenant: 0,
  auth: 'own',
  params: [{ param: 0, value: { cut: { doc, from, before: 0, after, spelling: 'same' } } }],
  extra: 'none',
  requestId: null,
});

/**
 * A name that terms starting at its token are found in the middle and at the end of (`Annual <token>namemiddle
 * report nameend.pdf`), and a text whose one word holds the text token after `pre` (found inside the word).
 */
const FOUND_INSIDE: FileSpec = {
  ...plainFile('text', SEARCH_FOUND_WORDS.textInWord),
  lead: 'pre',
  before: 'Annual ',
  after: `${SEARCH_FOUND_WORDS.nameMiddle} report ${SEARCH_FOUND_WORDS.nameEnd.replace(/\.pdf$/, '')}`,
};

/** A name in decomposed Unicode, as macOS sends it: `e` + U+0301, not the composed `é`. */
const DECOMPOSED: FileSpec = { ...plainFile('text', 'nfd'), before: 'Cafe\u0301 ', after: ' re\u0301sume\u0301' };

/**
 * A list with a refused value of every query parameter at once (the first refused partition of each that has
 * a value; `partition` indexes the ones with a value, as OracleInputs lists them): its `400` names each one.
 */
function everyParameterRefused(contract: Contract): Op[] {
  const catalog = partitionCatalog(contract);
  const params = ((contract.operation('listDocuments')?.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).filter(
    (p) => p.in === 'query',
  );
  const chosen = params.flatMap((p, param) => {
    const valued = (catalog.scalar('listDocuments', `query ${p.name}`)?.partitions ?? []).filter((q) => q.value !== undefined);
    const partition = valued.findIndex(refused);
    return partition === -1 ? [] : [{ param, value: { partition } }];
  });
  return chosen.length > 1 ? [{ kind: 'list', tenant: 0, auth: 'own', params: chosen, extra: 'none', requestId: null }] : [];
}

/**
 * The sequence for `contract` (its documents are D1, D2, ... in upload order).
 * @example clientInputsSequence(contract).filter((op) => op.kind === 'upload').length
 */
export function clientInputsSequence(contract: Contract): Op[] {
  return [
    // D1, then D2: D1 retried once both ended, so the older one changes after the newer one; listed while
    // it runs again and once it ended later: still in upload order, newest first, whatever updated_at says.
    upload([plainFile('text', 'older')]),
    upload([plainFile('text', 'newer')]),
    { kind: 'wait' },
    { kind: 'retry', tenant: 0, auth: 'own', doc: { doc: 0, spelling: 0 }, requestId: null },
    byToken,
    { kind: 'wait' },
    byToken,
    // D3: its name comes back byte for byte, in the upload's answer, the read and a search by it.
    upload([DECOMPOSED]),
    get(2),
    listByName(2),
    // D4 and D5: two parts of one name are two documents, both found by it.
    upload([plainFile('text', 'same'), plainFile('text', 'same')]),
    get(3),
    get(4),
    listByName(3),
    // A 0-byte part beside good ones: the upload is refused whole (a 0-byte file has no type), nothing stored.
    upload([plainFile('text', 'good'), plainFile('empty', 'empty'), plainFile('text', 'good')]),
    // D6 and D7: each a byte over half the per-file limit, together over it: accepted, as the limit is per file.
    upload([plainFile('over-half-size', 'half'), plainFile('over-half-size', 'half')]),
    listByName(5),
    // D8: a term found in the middle of its name, one found at its end, and (once it ended) one inside a word of its text.
    upload([FOUND_INSIDE]),
    search(7, 'filename', SEARCH_FOUND_WORDS.nameMiddle.length),
    search(7, 'filename', 255),
    { kind: 'wait' },
    search(7, 'content', 255),
    // D9: three pages, its words only on the last: its text holds them (once it ended) and a search by them finds it.
    upload([plainFile('later-page', 'laterpage')]),
    { kind: 'wait' },
    get(8),
    search(8, 'content', 255),
    // D1 to D9 read by their ids with a leading zero and with a `+`, which the contract lets a service read as
    // the number or refuse: of nine ids at least one reads as another number in octal (`010`) or as none (`09`).
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8].flatMap((doc) => [get(doc, spellingNumber('a leading zero')), get(doc, spellingNumber('a plus sign'))]),
    ...everyParameterRefused(contract),
  ];
}
