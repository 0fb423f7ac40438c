import type { Socket } from 'node:net';
import type { Http, PreparedRequest, RawAnswer } from '../http.js';
import { sleep } from '../polling.js';
import { ProxyRefused } from '../proxy.js';
import { targetTimeout } from '../transport.js';
import { openSocket } from './connect.js';
import { BodyTooLarge, parseHead, parseResponse, requestBytes } from './raw-http.js';

/** What one release brought back: each racer's answer, when its last byte went out, and when its answer was complete. */
export interface Round {
  raw: RawAnswer[];
  released: number[];
  finished: Array<number | undefined>;
  releasedAt: bigint;
}

/** How long the server gets to read every request but its last byte before they are released. */
const SETTLE_MS = 30;
/** Bytes of head (status line and fields) read beyond the body cap. */
const HEAD_ALLOWANCE = 64 * 1024;

const write = (socket: Socket, data: Uint8Array) =>
  new Promise<void>((resolve, reject) => socket.write(data, (e) => (e ? reject(e) : resolve())));

/**
 * One release of every racer: each on its own connection, written but its last byte, then every last byte
 * in one synchronous loop. Reads each answer up to the run's body cap (an answer beyond it is cut there
 * and judged too large); the timeout is the target's, never the runner's own pauses.
 */
export async function releaseOnce(http: Http, prepared: PreparedRequest[], bytes: Buffer[], requestTimeoutMs: number): Promise<Round> {
  http.gate.check();
  await http.pacer.take(prepared.length);
  const timeoutMs = Math.max(1, Math.min(requestTimeoutMs, http.gate.remainingMs()));
  const cap = http.maxBodyBytes + HEAD_ALLOWANCE;
  const opened = await Promise.allSettled(prepared.map((p) => openSocket(new URL(p.url), http.transport, timeoutMs)));
  const answers: Array<Promise<RawAnswer>> = [];
  const finished: Array<number | undefined> = prepared.map(() => undefined);
  const whole: boolean[] = prepared.map(() => false);
  let releasedAt = 0n;
  opened.forEach((o, i) => {
    if (o.status === 'rejected') {
      const reason = o.reason as NodeJS.ErrnoException;
      answers.push(
        Promise.resolve(
          reason instanceof ProxyRefused
            ? { error: reason.message, durationMs: 0, proxyRefused: reason.refusal }
            : { error: reason.code ?? String(reason), durationMs: 0, unreachable: true },
        ),
      );
      return;
    }
    const socket = o.value;
    const chunks: Buffer[] = [];
    let received = 0;
    answers.push(
      new Promise<RawAnswer>((resolve) => {
        const since = () => (releasedAt ? Number(process.hrtime.bigint() - releasedAt) / 1e6 : 0);
        const cancel = targetTimeout(timeoutMs, () => {
          socket.destroy();
          resolve({ error: `no complete answer within ${timeoutMs} ms`, durationMs: since(), timedOut: true, endedAt: Date.now() });
        });
        socket.on('data', (chunk: Buffer) => {
          received += chunk.length;
          chunks.push(chunk);
          if (received > cap) socket.destroy();
        });
        // A server may answer (and close) before the last byte: what it sent wins over a write error.
        const finish = (reason?: string) => {
          cancel();
          finished[i] ??= since();
          if (chunks.length === 0)
            return resolve({
              error: reason ?? 'connection closed without an answer',
              durationMs: since(),
              ...(whole[i] ? { sentWhole: true } : {}),
            });
          resolve({ ...readAnswer(Buffer.concat(chunks), received > cap, http.maxBodyBytes, since()), endedAt: Date.now() });
        };
        socket.once('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
        socket.once('close', () => finish());
      }),
    );
  });
  const sockets = opened.map((o) => (o.status === 'fulfilled' ? o.value : undefined));
  // A write that fails (the server closed early) leaves its answer, or the reason, to the socket's own events.
  await Promise.allSettled(sockets.map((s, i) => s && write(s, bytes[i]!.subarray(0, -1))));
  await sleep(SETTLE_MS);
  const released: number[] = [];
  releasedAt = process.hrtime.bigint();
  sockets.forEach((s, i) => {
    s?.write(bytes[i]!.subarray(-1), (error) => {
      whole[i] = !error;
    });
    released[i] = Number(process.hrtime.bigint() - releasedAt) / 1e6;
  });
  return { raw: await Promise.all(answers), released, finished, releasedAt };
}

/** The answer in `data`; `cut` when more than the cap arrived (then judged too large, from its head). */
function readAnswer(data: Buffer, cut: boolean, maxBodyBytes: number, durationMs: number): RawAnswer {
  try {
    const { status, headers, body } = parseResponse(data, maxBodyBytes);
    return { status, headers, bytes: body, durationMs };
  } catch (error) {
    const head = cut || error instanceof BodyTooLarge ? parseHead(data) : undefined;
    if (head)
      return {
        ...head,
        bytes: new Uint8Array(0),
        durationMs,
        tooLarge: { received: `more than ${maxBodyBytes} bytes of body`, limit: maxBodyBytes },
      };
    return { error: (error as Error).message, durationMs };
  }
}

/**
 * One request on a socket of its own that keeps reading while it writes: the answer of a target that
 * answered and closed before the body was all sent (HttpOptions.earlyAnswer), which fetch loses.
 * @example const answer = await sendWhileReading(http, prepared, 30_000);
 */
export async function sendWhileReading(http: Http, prepared: PreparedRequest, requestTimeoutMs: number): Promise<RawAnswer> {
  const round = await releaseOnce(http, [prepared], [requestBytes(prepared, http.transport)], requestTimeoutMs);
  return round.raw[0]!;
}
