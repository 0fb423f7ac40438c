import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// Connection-level headers belong to the hop they came on, not to the request a fetch makes anew.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

async function bodyOf(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(Buffer.concat(chunks));
}

/** A port in front of a `fetch` function: what a suite in another process needs to reach a mock living in this one. */
export interface FetchBridge {
  /** e.g. `http://127.0.0.1:38125`. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Serves 127.0.0.1 on a free port by handing each request, as it came (method, path and query, headers byte
 * for byte, body), to `send` as a fetch of `origin` + the same path, and writing its answer back. With the
 * global `fetch` under msw/node's setupServer, MSW intercepts it; with a fetch mock, the mock answers.
 * @example const bridge = await bridgeFetch(fetch, 'http://docproc.test'); // suite --base-url bridge.baseUrl
 */
export async function bridgeFetch(send: (request: Request) => Promise<Response>, origin: string): Promise<FetchBridge> {
  const server = createServer(async (req, res) => {
    try {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1]!);
      }
      const body = await bodyOf(req);
      const request = new Request(`${origin}${req.url}`, { method: req.method, headers, body, redirect: 'manual' });
      const response = await send(request);
      const answer = Buffer.from(await response.arrayBuffer());
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        out[name] = value;
      });
      res.writeHead(response.status, out);
      res.end(req.method === 'HEAD' ? undefined : answer);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`fetch bridge: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
