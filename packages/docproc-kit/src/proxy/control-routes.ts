import type { IncomingMessage, ServerResponse } from 'node:http';
import { proxyFacts, renderHtmlReport } from '@docproc-kit/conformance/observe';
import type { Judging } from './judging.js';

/** The path prefix the proxy answers itself; everything else goes to the target. */
export const CONTROL_PREFIX = '/_proxy/';

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
};

/** A browser asks for `text/html` by name; curl and fetch send `*\/*` and get JSON. */
function wantsHtml(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '')
    .split(',')
    .some((part) => /^\s*text\/html\s*(;|$)/i.test(part) && !/;\s*q=0(\.0*)?\s*(;|$)/i.test(part));
}

const FLUSH = '/_proxy/record/flush';

/**
 * Answers `GET /_proxy/violations[?limit=N]` (newest first), `GET /_proxy/report` (the summary as JSON, or
 * to a browser the suite's report as a page) and, when recording, `POST /_proxy/record/flush` (writes the
 * recording now, answers its summary); any other control path is a 404, any other method a 405.
 * @example if (req.url?.startsWith(CONTROL_PREFIX)) await answerControl(req, res, judging, flush);
 */
export async function answerControl(
  req: IncomingMessage,
  res: ServerResponse,
  source: Pick<Judging, 'newest' | 'total' | 'summary' | 'report'>,
  flush?: () => Promise<unknown>,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://proxy');
  req.resume();
  if (url.pathname === FLUSH && flush) {
    if (req.method === 'POST') json(res, 200, await flush());
    else {
      res.setHeader('allow', 'POST');
      json(res, 405, { error: 'only POST' });
    }
  } else if (url.pathname !== '/_proxy/violations' && url.pathname !== '/_proxy/report') {
    const routes = `GET /_proxy/violations or /_proxy/report${flush ? `, POST ${FLUSH}` : ` (${FLUSH} only with --record)`}`;
    json(res, 404, { error: `no such proxy route ${url.pathname}: ${routes}` });
  } else if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    json(res, 405, { error: 'only GET' });
  } else if (url.pathname === '/_proxy/report' && wantsHtml(req)) {
    const [{ report }, summary] = await Promise.all([source.report(), source.summary()]);
    const page = renderHtmlReport(report, { facts: proxyFacts(summary) });
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      vary: 'accept',
      'content-length': Buffer.byteLength(page),
    });
    res.end(page);
  } else if (url.pathname === '/_proxy/report') {
    res.setHeader('vary', 'accept');
    json(res, 200, await source.summary());
  } else {
    const asked = Number(url.searchParams.get('limit') ?? '100');
    const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, 1_000) : 100;
    const [violations, total] = await Promise.all([source.newest(limit), source.total()]);
    json(res, 200, { total, shown: violations.length, violations });
  }
}
