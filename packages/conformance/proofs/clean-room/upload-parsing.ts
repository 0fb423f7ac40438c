// Reads a multipart upload with busboy into memory, judging every part against the contract's limits.
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import type { Request } from 'express';
import type { FieldError } from './problems.js';

// busboy ships no types; this is the part of its API used here.
type Parser = Writable & ParserEvents;
interface ParserEvents {
  on(event: 'file', fn: (name: string, stream: Readable, info: { filename?: string }) => void): Parser;
  on(event: 'field', fn: (name: string) => void): Parser;
  on(event: 'filesLimit' | 'partsLimit' | 'fieldsLimit' | 'close', fn: () => void): Parser;
  on(event: 'error', fn: (err: Error) => void): Parser;
}
const busboy = createRequire(import.meta.url)('busboy') as (config: object) => Parser;

export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export type UploadOutcome =
  | { ok: true; files: UploadedFile[] }
  | { ok: false; status: number; code: string; detail: string; errors?: FieldError[] };

const MIN_BYTES_PER_WINDOW = 10 * 1024;
const WINDOW_MS = 10_000;

function invalid(name: string, message: string, inWhere: FieldError['in'] = 'body'): UploadOutcome {
  return { ok: false, status: 400, code: 'invalid_request', detail: message, errors: [{ in: inWhere, name, message }] };
}

export function parseUpload(req: Request, limits: { maxFileBytes: number; maxFiles: number }): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const type = req.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type)) {
      resolve(invalid('Content-Type', 'the body must be multipart/form-data', 'header'));
      req.resume();
      return;
    }
    let parser: Parser;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // Filenames are data, never paths: keep them whole.
        preservePath: true,
        limits: { fileSize: limits.maxFileBytes + 1, files: limits.maxFiles, fieldSize: 1024 * 1024 },
      });
    } catch {
      resolve(invalid('Content-Type', 'the multipart Content-Type has no usable boundary', 'header'));
      req.resume();
      return;
    }
    const files: UploadedFile[] = [];
    const pending: Promise<void>[] = [];
    let settled = false;
    let received = 0;
    let windowStart = 0;
    const timer = setInterval(() => {
      if (received - windowStart < MIN_BYTES_PER_WINDOW) {
        finish({ ok: false, status: 408, code: 'invalid_request', detail: 'The upload arrived too slowly.' });
        req.destroy();
      }
      windowStart = received;
    }, WINDOW_MS);
    const finish = (outcome: UploadOutcome) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      if (!outcome.ok) {
        req.unpipe(parser);
        req.resume();
      }
      resolve(outcome);
    };
    req.on('data', (chunk: Buffer) => (received += chunk.length));
    req.on('error', () => finish(invalid('files[]', 'the upload was interrupted')));
    parser.on('file', (name, stream, info) => {
      if (name !== 'files[]') {
        stream.resume();
        return finish(invalid(name, 'unexpected field; use "files[]"'));
      }
      const filename = info.filename ?? '';
      if (filename.includes('\u0000')) {
        stream.resume();
        return finish(invalid('files[]', 'the filename holds a NUL character'));
      }
      if ([...filename].length > 255) {
        stream.resume();
        return finish(invalid('files[]', 'the filename is longer than 255 characters'));
      }
      const chunks: Buffer[] = [];
      const entry: UploadedFile = { filename, bytes: Buffer.alloc(0) };
      files.push(entry);
      pending.push(
        new Promise<void>((done) => {
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('limit', () => {
            finish({
              ok: false,
              status: 413,
              code: 'file_too_large',
              detail: `"${filename}" is larger than the ${limits.maxFileBytes}-byte limit per file.`,
            });
          });
          stream.on('error', () => {
            finish(invalid('files[]', 'the multipart body ended inside a file'));
            done();
          });
          stream.on('close', () => {
            entry.bytes = Buffer.concat(chunks);
            done();
          });
        }),
      );
    });
    parser.on('field', (name) => {
      finish(
        name === 'files[]'
          ? invalid('files[]', 'each files[] part must be a file (with a filename)')
          : invalid(name, 'unexpected field; use "files[]"'),
      );
    });
    parser.on('filesLimit', () =>
      finish({
        ok: false,
        status: 413,
        code: 'too_many_files',
        detail: `At most ${limits.maxFiles} files can be uploaded in one request.`,
      }),
    );
    parser.on('partsLimit', () => finish(invalid('files[]', 'too many parts')));
    parser.on('fieldsLimit', () => finish(invalid('files[]', 'too many fields')));
    parser.on('error', () => finish(invalid('files[]', 'the multipart body is malformed')));
    parser.on('close', () => {
      void Promise.all(pending).then(() => {
        if (files.length === 0) return finish(invalid('files[]', 'at least one file is required'));
        finish({ ok: true, files });
      });
    });
    req.pipe(parser);
  });
}
