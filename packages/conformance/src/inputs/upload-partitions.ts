import type { RequestBody } from '../definitions/exchange.js';
import { MULTIPART_FORMS, sentWire } from './multipart-forms.js';
import { nonAscii, type Partition } from './partitions.js';

// The upload as a whole and each of its parts: categories from the request body's schema (its field,
// `minItems`), the documented limits (`x-default-limits`), the document types (`DocumentContentType`), the
// filename's `maxLength`, and the prose sentences on types, names and fields (each partition names its rule).

/** One part of an upload as it was sent: from FormData's file parts, or read back from a hand-built body. */
export interface SentPart {
  field: string;
  filename?: string;
  /** Its name travelled as `filename*` (RFC 5987). */
  star: boolean;
  contentType?: string;
  data: Uint8Array;
}

/** What the upload partitions are derived from (all read from the contract, limits possibly the deployment's). */
export interface UploadFacts {
  fileField: string;
  /** The document types in the order the contract lists them (`application/pdf`, ...). */
  types: string[];
  maxFiles?: number;
  maxFileBytes?: number;
  maxFilename?: number;
}

// File signatures of the accepted types (what "detected from the file's leading bytes" reads).
const SIGNATURES: Record<string, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};
const EXTENSIONS: Record<string, string[]> = { 'application/pdf': ['pdf'], 'image/jpeg': ['jpg', 'jpeg'], 'image/png': ['png'] };

/** The accepted type whose signature `data` starts with, if any. */
export function detectedType(data: Uint8Array, types: readonly string[]): string | undefined {
  return types.find((t) => SIGNATURES[t]?.every((b, i) => data[i] === b));
}

const short = (type: string) => type.split('/')[1]!.toUpperCase();

/** The upload's partitions (`body`) and each part's (`part`), with the rules that say them. */
export function uploadPartitions(facts: UploadFacts): { body: Partition[]; part: Partition[] } {
  const sequences = 'the oracle’s uploads';
  const clients = 'the oracle’s sequence of what real clients send';
  const body: Partition[] = [
    { id: 'parts: none', source: 'schema minItems', drawnBy: sequences },
    { id: 'parts: one', source: 'schema minItems', drawnBy: sequences },
    { id: 'parts: several', source: 'upload.multipart-files', drawnBy: sequences },
    ...(facts.maxFiles !== undefined
      ? [
          { id: 'parts: at the file limit', source: 'x-default-limits max_files', drawnBy: sequences },
          { id: 'parts: above the file limit', source: 'x-default-limits max_files', drawnBy: sequences },
        ]
      : []),
    { id: 'names: two parts with the same name', source: 'upload.202-one-per-file', drawnBy: clients },
    { id: 'parts: a 0-byte file beside others', source: 'upload.all-or-nothing', drawnBy: clients },
    ...(facts.maxFileBytes !== undefined
      ? [{ id: 'size: each part under the per-file limit, together over it', source: 'x-default-limits max_file_bytes', drawnBy: clients }]
      : []),
    { id: `field: another name than ${facts.fileField}`, source: 'upload.only-files-field', drawnBy: sequences },
    { id: 'field: a text part (no filename) under another name', source: 'upload.only-files-field', drawnBy: 'the upload scenarios' },
    {
      id: `field: a text part (no filename) under ${facts.fileField}, alone`,
      source: 'upload.multipart-files',
      drawnBy: 'the robustness scenarios',
    },
    { id: 'body: not multipart/form-data', source: 'upload.multipart-files', drawnBy: 'the robustness scenarios' },
    // A media type read with `includes('multipart/form-data')` takes this one for multipart.
    { id: 'body: multipart/form-data named only in a parameter', source: 'upload.multipart-files', drawnBy: 'the robustness scenarios' },
    { id: 'body: empty', source: 'validation.body-less-upload', drawnBy: 'the robustness scenarios' },
    // Every way of writing the body on the wire (inputs/multipart-forms.ts): what the standards allow, forbid, leave to the parser.
    ...MULTIPART_FORMS.map((f) => ({
      id: f.id,
      source: f.reading === 'refused' ? 'errors.upload-400-causes' : 'upload.multipart-files',
      drawnBy: 'the upload scenarios',
    })),
  ];
  const part: Partition[] = [
    ...facts.types.map((t) => ({ id: `bytes: ${short(t)}`, source: 'schema DocumentContentType', drawnBy: sequences })),
    { id: 'bytes: none of the accepted types', source: 'upload.type-from-bytes', drawnBy: sequences },
    // "Beyond the processing limits (too many pages)": the limit is the deployment's, hundreds of pages pass the reference server's.
    { id: 'pages: hundreds (a PDF past a page limit)', source: 'processing.unreadable', drawnBy: sequences },
    // "Processing extracts the text layer of PDFs": all of it, so words on page 3 alone are the text.
    { id: 'pages: several, words only on a later page', source: 'processing.extracts-text', drawnBy: clients },
    { id: 'declared type: the bytes’ own', source: 'upload.type-from-bytes', drawnBy: sequences },
    { id: 'declared type: another accepted type', source: 'upload.type-from-bytes', drawnBy: sequences },
    { id: 'declared type: not an accepted type', source: 'upload.type-from-bytes', drawnBy: sequences },
    { id: 'name: extension of another type', source: 'upload.type-from-bytes', drawnBy: sequences },
    { id: 'name: no extension', source: 'upload.type-from-bytes', drawnBy: sequences },
    { id: 'name: non-ASCII', source: 'upload.filename-verbatim', drawnBy: sequences },
    // As macOS sends names: `e` + U+0301, which a store or framework that normalizes to NFC changes.
    { id: 'name: decomposed Unicode (not NFC)', source: 'upload.filename-verbatim', drawnBy: clients },
    { id: 'name: written as filename*', source: 'upload.filename-verbatim', drawnBy: sequences },
    { id: 'name: holding NUL', source: 'upload.filename-no-nul', drawnBy: sequences },
    ...(facts.maxFilename !== undefined
      ? [
          { id: 'name: at the length limit', source: 'schema maxLength (filename)', drawnBy: sequences },
          { id: 'name: above the length limit', source: 'schema maxLength (filename)', drawnBy: sequences },
        ]
      : []),
    ...(facts.maxFileBytes !== undefined
      ? [
          { id: 'size: at the per-file limit', source: 'x-default-limits max_file_bytes', drawnBy: 'the upload scenarios' },
          { id: 'size: above the per-file limit', source: 'x-default-limits max_file_bytes', drawnBy: sequences },
        ]
      : []),
  ];
  return { body, part };
}

/** The partitions one upload body falls in: its own (`body`) and its parts' (`part`). */
export function classifyUpload(facts: UploadFacts, body: RequestBody | undefined): { body: string[]; part: string[] } {
  const found = { body: new Set<string>(), part: new Set<string>() };
  const parts = sentParts(body);
  if (!body || (body.kind === 'raw' && body.data.length === 0)) found.body.add('body: empty');
  else if (parts === undefined) {
    found.body.add('body: not multipart/form-data');
    if (body.kind === 'raw' && /;.*multipart\/form-data/i.test(body.contentType ?? ''))
      found.body.add('body: multipart/form-data named only in a parameter');
  }
  const files = (parts ?? []).filter((p) => p.field === facts.fileField);
  if (parts !== undefined) {
    if (files.length === 0) found.body.add('parts: none');
    else if (files.length === 1) found.body.add('parts: one');
    else found.body.add('parts: several');
    if (facts.maxFiles !== undefined && files.length === facts.maxFiles) found.body.add('parts: at the file limit');
    if (facts.maxFiles !== undefined && files.length > facts.maxFiles) found.body.add('parts: above the file limit');
    const names = files.flatMap((p) => (p.filename !== undefined ? [p.filename] : []));
    if (new Set(names).size < names.length) found.body.add('names: two parts with the same name');
    if (files.length > 1 && files.some((p) => p.data.length === 0) && files.some((p) => p.data.length > 0))
      found.body.add('parts: a 0-byte file beside others');
    const max = facts.maxFileBytes;
    if (max !== undefined && files.every((p) => p.data.length <= max) && files.reduce((n, p) => n + p.data.length, 0) > max)
      found.body.add('size: each part under the per-file limit, together over it');
    if (parts.some((p) => p.field !== facts.fileField)) found.body.add(`field: another name than ${facts.fileField}`);
    if (parts.some((p) => p.field !== facts.fileField && p.filename === undefined))
      found.body.add('field: a text part (no filename) under another name');
    if (parts.length > 0 && parts.every((p) => p.field === facts.fileField && p.filename === undefined))
      found.body.add(`field: a text part (no filename) under ${facts.fileField}, alone`);
  }
  if (body?.kind === 'raw' && body.contentType !== undefined && /^multipart\//i.test(body.contentType)) {
    const wire = sentWire(body.contentType, body.data);
    for (const form of MULTIPART_FORMS) if (form.holds(wire)) found.body.add(form.id);
  }
  for (const p of files) for (const id of classifyPart(facts, p)) found.part.add(id);
  return { body: [...found.body], part: [...found.part] };
}

function classifyPart(facts: UploadFacts, p: SentPart): string[] {
  const out: string[] = [];
  const type = detectedType(p.data, facts.types);
  out.push(type ? `bytes: ${short(type)}` : 'bytes: none of the accepted types');
  if (type === 'application/pdf' && pageCount(p.data) >= MANY_PAGES) out.push('pages: hundreds (a PDF past a page limit)');
  if (type === 'application/pdf' && wordsOnlyAfterPageOne(p.data)) out.push('pages: several, words only on a later page');
  const declared = (p.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type && declared === type) out.push('declared type: the bytes’ own');
  else if (facts.types.includes(declared)) out.push('declared type: another accepted type');
  else out.push('declared type: not an accepted type');
  const name = p.filename ?? '';
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension === undefined) out.push('name: no extension');
  else if (type && !EXTENSIONS[type]?.includes(extension)) out.push('name: extension of another type');
  if (nonAscii(name)) out.push('name: non-ASCII');
  if (name.normalize('NFC') !== name) out.push('name: decomposed Unicode (not NFC)');
  if (p.star) out.push('name: written as filename*');
  if (name.includes('\u0000')) out.push('name: holding NUL');
  const length = [...name].length;
  if (facts.maxFilename !== undefined && length === facts.maxFilename) out.push('name: at the length limit');
  if (facts.maxFilename !== undefined && length > facts.maxFilename) out.push('name: above the length limit');
  if (facts.maxFileBytes !== undefined && p.data.length === facts.maxFileBytes) out.push('size: at the per-file limit');
  if (facts.maxFileBytes !== undefined && p.data.length > facts.maxFileBytes) out.push('size: above the per-file limit');
  return out;
}

const MANY_PAGES = 100;

/** The page count a PDF's page tree declares (`/Type /Pages ... /Count n`, near its start in the files sent here), or 0. */
function pageCount(data: Uint8Array): number {
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, 16_384)).toString('latin1');
  return Number(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/.exec(head)?.[1] ?? 0);
}

/**
 * Whether a PDF of a few pages draws nothing on its first page and something on a later one, read from its
 * page tree's kids and their content streams' lengths (as the files sent here write them), else false.
 */
function wordsOnlyAfterPageOne(data: Uint8Array): boolean {
  const count = pageCount(data);
  if (count < 2 || count >= MANY_PAGES) return false;
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, 16_384)).toString('latin1');
  const kids = [...(/\/Kids\s*\[([^\]]*)\]/.exec(head)?.[1]?.matchAll(/(\d+)\s+0\s+R/g) ?? [])].map((m) => m[1]!);
  const drawn = kids.map((kid) => {
    const contents = new RegExp(`(?:^|\\s)${kid} 0 obj\\s*<<[^>]*/Contents (\\d+) 0 R`).exec(head)?.[1];
    const length = contents && new RegExp(`(?:^|\\s)${contents} 0 obj\\s*<<\\s*/Length (\\d+)`).exec(head)?.[1];
    return length ? Number(length) > 0 : undefined;
  });
  return drawn[0] === false && drawn.slice(1).some((d) => d === true);
}

/** The parts of a body as sent: FormData's file parts, or a hand-built multipart body read back; undefined when it is not multipart. */
export function sentParts(body: RequestBody | undefined): SentPart[] | undefined {
  if (!body) return undefined;
  if (body.kind === 'files')
    return body.parts.map((p) => ({ field: p.field, filename: p.filename, star: false, contentType: p.contentType, data: p.data }));
  const boundary = /^multipart\/form-data\s*;.*boundary="?([^";]+)"?/i.exec(body.contentType ?? '')?.[1];
  if (!boundary) return undefined;
  const text = Buffer.from(body.data).toString('latin1');
  const parts: SentPart[] = [];
  const delimiter = `--${boundary}`;
  let at = text.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (text.startsWith('--', start)) break;
    const next = text.indexOf(`\r\n${delimiter}`, start);
    const chunk = text.slice(start, next === -1 ? text.length : next);
    const split = chunk.indexOf('\r\n\r\n');
    if (split !== -1) {
      const head = chunk.slice(0, split);
      const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? '';
      // Quoted or a bare token (RFC 6266 allows both), parameter names in any letter case.
      const named = /\bname=(?:"([^"]*)"|([^\s;"]+))/i.exec(disposition);
      const field = named?.[1] ?? named?.[2];
      // An RFC 5987 ext-value: charset, optional language, percent-encoded bytes.
      const extended = /filename\*=([^';\s]*)'[^']*'([^;\s]*)/i.exec(disposition);
      const star = extended ? decodeStar(extended[2]!, extended[1]!) : undefined;
      const quoted = /\bfilename=(?:"((?:[^"\\]|\\.)*)"|([^\s;"]+))/i.exec(disposition);
      const plain = quoted?.[1] ?? quoted?.[2];
      const filename = star !== undefined ? star : plain !== undefined ? Buffer.from(plain, 'latin1').toString('utf8') : undefined;
      const contentType = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1];
      const data = Buffer.from(chunk.slice(split + 4), 'latin1');
      if (field !== undefined)
        parts.push({
          field,
          star: star !== undefined,
          data,
          ...(filename !== undefined ? { filename } : {}),
          ...(contentType ? { contentType } : {}),
        });
    }
    at = next === -1 ? -1 : next + 2;
  }
  return parts;
}

function decodeStar(value: string, charset: string): string {
  try {
    if (/^iso-8859-1$/i.test(charset))
      return value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
