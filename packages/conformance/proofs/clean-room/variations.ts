// Answers written as other correct services write them: every header name in lower case, a JSON media
// type's parameter spelled `;charset=UTF-8`, bodies gzip-compressed for a client that accepts it and sent
// chunked (no Content-Length). HTTP lets a service choose each of these; a client must not care.
import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';

const respell = (name: string, value: unknown) =>
  name.toLowerCase() === 'content-type' && typeof value === 'string' ? value.replace(/;\s*charset=utf-8/i, ';charset=UTF-8') : value;

export function varyAnswers(req: Request, res: Response, next: NextFunction): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    setHeader(name.toLowerCase(), respell(name, value) as string);
  const gzip = /\bgzip\b/i.test(req.get('accept-encoding') ?? '');
  const end = res.end.bind(res) as (chunk?: unknown, encoding?: BufferEncoding) => Response;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    if (chunk === undefined || typeof chunk === 'function' || req.method === 'HEAD') return end(chunk as undefined);
    let body = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(String(chunk), (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding);
    res.removeHeader('content-length');
    if (gzip && body.length > 0) {
      body = gzipSync(body);
      setHeader('content-encoding', 'gzip');
      setHeader('vary', 'accept-encoding');
    }
    // Two writes and no length: Node sends the body chunked.
    res.write(body.subarray(0, Math.ceil(body.length / 2)));
    return end(body.subarray(Math.ceil(body.length / 2)));
  }) as Response['end'];
  next();
}
