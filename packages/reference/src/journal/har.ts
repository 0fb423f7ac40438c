import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import type { JournalEntry } from './request-journal.js';

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const queryString = (query: JournalEntry['query']) =>
  Object.entries(query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })));

const search = (query: JournalEntry['query']) => {
  const pairs = queryString(query).map(({ name, value }) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
};

/**
 * Journal entries as a HAR 1.2 log (http://www.softwareishard.com/blog/har-12-spec/), which browser
 * devtools import: no headers (so no key) and no bodies (so no file's bytes); an upload's parts are
 * its `postData.params`, a problem's code and detail are in `response.content.text`, and the request id
 * is `_requestId`. `origin` makes the URLs absolute, as HAR wants.
 * @example toHar(await journal.list(tenant), 'http://localhost:4010');
 */
export function toHar(entries: readonly JournalEntry[], origin: string) {
  return {
    log: {
      version: '1.2',
      creator: { name: 'docproc reference server', version: '1' },
      entries: entries.map((entry) => {
        const problem = entry.code === null ? undefined : JSON.stringify({ code: entry.code, detail: entry.detail });
        const bodySize = entry.parts.reduce((sum, part) => sum + part.size, 0);
        return {
          startedDateTime: new Date(entry.started_ms).toISOString(),
          time: entry.duration_ms,
          request: {
            method: entry.method,
            url: `${origin}${entry.path}${search(entry.query)}`,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [],
            queryString: queryString(entry.query),
            ...(entry.parts.length > 0
              ? {
                  postData: {
                    mimeType: BUNDLED.mediaTypes.upload,
                    params: entry.parts.map((p) => ({ name: p.name, fileName: p.filename })),
                  },
                }
              : {}),
            headersSize: -1,
            bodySize: entry.parts.length > 0 ? bodySize : -1,
          },
          response: {
            status: entry.status,
            statusText: REASONS[entry.status] ?? '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [],
            content: problem
              ? { size: problem.length, mimeType: BUNDLED.mediaTypes.problem, text: problem }
              : { size: 0, mimeType: BUNDLED.mediaTypes.json },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          },
          cache: {},
          timings: { send: 0, wait: entry.duration_ms, receive: 0 },
          _requestId: entry.request_id,
          _operation: entry.operation,
        };
      }),
    },
  };
}
