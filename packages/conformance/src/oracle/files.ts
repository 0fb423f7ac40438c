import { createHash } from 'node:crypto';
import { fixture, textPdf } from '../kit/files.js';

/**
 * What a generated file is: a PDF whose text the oracle wrote (`text`), a PDF page with none (`blank`), a
 * damaged PDF, a truncated PNG (whose OCR is the deployment's), a file of no accepted type, and one a byte
 * over the deployment's size limit.
 */
export type FileContent = 'text' | 'blank' | 'damaged' | 'image' | 'refused' | 'over-size';

/** A generated file: its bytes, and what processing it must give where the contract decides it. */
export interface OracleFile {
  content: FileContent;
  bytes: Uint8Array;
  /** The text the oracle wrote into it (`text`: its words; `blank`: ''), undefined where the deployment decides. */
  text?: string;
  key: string;
}

const SCAN = fixture('truncated.png');
const CORRUPT = fixture('corrupt.pdf');
const NOT_A_DOCUMENT = fixture('not-a-document.txt');
const encoder = new TextEncoder();

/** Identifies a file by its bytes (how the twin's extractor knows which file a run reads). */
export const bytesKey = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

function concat(...chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * The file of `content` numbered `serial` in a sequence: every file's bytes are its own, so the twin can
 * tell each run's file apart. `words` is the text a `text` PDF holds.
 * @example oracleFile('text', 3, ['conformance-run-oracle-s1z-Straße']).text // 'conformance-run-oracle-s1z-Straße'
 */
export function oracleFile(content: FileContent, serial: number, words: string[], maxFileBytes: number): OracleFile {
  const unique = encoder.encode(`\n%oracle file ${serial}\n`);
  let bytes: Uint8Array;
  let text: string | undefined;
  switch (content) {
    case 'text':
      bytes = textPdf(words);
      text = words.join('\n');
      break;
    case 'blank':
      // A page one point wider per file: the bytes differ, the page is as blank.
      bytes = textPdf([], { width: 420 + serial, height: 300, left: 40, top: 250, leading: 30, size: 18 });
      text = '';
      break;
    case 'damaged':
      bytes = concat(CORRUPT, unique);
      break;
    case 'image':
      bytes = concat(SCAN, unique);
      break;
    case 'refused':
      bytes = concat(NOT_A_DOCUMENT, unique);
      break;
    case 'over-size': {
      bytes = new Uint8Array(maxFileBytes + 1).fill(0x20);
      bytes.set(encoder.encode(`%PDF-1.7\n%oracle file ${serial}\n`));
      break;
    }
  }
  return { content, bytes, ...(text !== undefined ? { text } : {}), key: bytesKey(bytes) };
}
