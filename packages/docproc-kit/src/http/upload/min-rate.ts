import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MinUploadRate } from '@docproc-kit/reference/http/upload/received-upload.js';
import { answerProblem, protocolError } from '../problem-answer.js';

/** The rate `docproc serve` enforces unless told otherwise. */
export const DEFAULT_MIN_UPLOAD_RATE: MinUploadRate = { bytesPerSecond: 1024, windowMs: 10_000 };

/**
 * Cuts an upload whose body arrives slower than the minimum rate over a window: answers `408` with a
 * problem (and `Connection: close`) and destroys the request, so a dripping client holds neither its
 * socket nor its temp file for long. Returns a function that stops watching (call it once the body
 * is read).
 * @example const stop = watchUploadRate(req, res, DEFAULT_MIN_UPLOAD_RATE); parse(req, res, () => { stop(); ... });
 */
export function watchUploadRate(req: IncomingMessage, res: ServerResponse, { bytesPerSecond, windowMs }: MinUploadRate): () => void {
  // Counted on the socket, so the body stream itself is left alone for the parser.
  const socket = req.socket;
  let before = socket.bytesRead;
  const minimum = (bytesPerSecond * windowMs) / 1000;
  const timer = setInterval(() => {
    const received = socket.bytesRead - before;
    before = socket.bytesRead;
    if (received >= minimum || req.complete) return;
    stop();
    const detail = `The upload arrived slower than ${bytesPerSecond} bytes/s over ${windowMs / 1000} s, the minimum; the request was cut.`;
    answerProblem(req, res, protocolError(408, detail), { requestId: req.id, close: true });
    // Once the answer is out; the request's error then tears down the upload and its temp files.
    const cut = () => req.destroy(new Error(detail));
    if (res.writableFinished) cut();
    else res.once('finish', cut).once('close', cut);
  }, windowMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  return stop;
}
