import type { Exchange } from '../definitions/exchange.js';

/**
 * Proxies, gateways, load balancers and CDNs that answer some requests themselves (a malformed path, an
 * upstream that is down), each with the word that names it in `Server`, `Via` or the HTML page it sends.
 */
export const KNOWN_INTERMEDIARIES: ReadonlyArray<{ name: string; word: RegExp }> = [
  { name: 'nginx', word: /\bnginx\b|\bopenresty\b/i },
  { name: 'Envoy', word: /\benvoy\b/i },
  { name: 'HAProxy', word: /\bhaproxy\b/i },
  { name: 'Apache httpd', word: /\bapache\b/i },
  { name: 'Traefik', word: /\btraefik\b/i },
  { name: 'Caddy', word: /\bcaddy\b/i },
  { name: 'Varnish', word: /\bvarnish\b/i },
  { name: 'Squid', word: /\bsquid\b/i },
  { name: 'Tinyproxy', word: /\btinyproxy\b/i },
  { name: 'Cloudflare', word: /\bcloudflare\b/i },
  { name: 'AWS load balancer', word: /\bawselb\b|\bawsalb\b/i },
  { name: 'Google front end', word: /\bgoogle frontend\b|\bgfe\b|\b1\.1 google\b/i },
  { name: 'Kong', word: /\bkong\b/i },
  { name: 'Akamai', word: /\bakamai/i },
];

/** Why an answer is taken for an intermediary's own: who, and the evidence. */
export interface IntermediaryAnswer {
  name: string;
  evidence: string[];
}

const SANE_REQUEST_ID = /^[\x21-\x7E]{1,200}$/;

/**
 * The intermediary that made this answer itself, when the evidence says one did, else undefined. It takes
 * both: a known proxy named by the answer (`Server`, `Via`, or the HTML page), and none of the service's
 * own marks (the contract's "Every response carries `X-Request-Id`", echoed when a sane one was sent). A
 * service that itself answers without an X-Request-Id, with nothing naming a proxy, stays the service's.
 * @example intermediaryAnswer(exchange)?.name // 'nginx'
 */
export function intermediaryAnswer(exchange: Exchange): IntermediaryAnswer | undefined {
  if (exchange.status < 400) return undefined;
  const requestId = exchange.headers.get('x-request-id');
  const sent = exchange.requestId;
  const ours = requestId !== null && (sent === undefined || !SANE_REQUEST_ID.test(sent) || requestId === sent);
  if (ours) return undefined;
  const html = /^text\/html$/.test(exchange.mediaType);
  const places: Array<[string, string | null]> = [
    ['Server', exchange.headers.get('server')],
    ['Via', exchange.headers.get('via')],
    ['its HTML page', html ? exchange.text.slice(0, 4096) : null],
  ];
  for (const { name, word } of KNOWN_INTERMEDIARIES) {
    const named = places.filter(([, value]) => value !== null && word.test(value)).map(([where]) => where);
    if (named.length === 0) continue;
    return {
      name,
      evidence: [
        `${named.join(' and ')} name${named.length === 1 ? 's' : ''} ${name}`,
        requestId === null ? 'no X-Request-Id' : `X-Request-Id ${JSON.stringify(requestId)} is not the one sent`,
        ...(html ? ['an HTML body'] : exchange.mediaType === 'application/problem+json' ? [] : ['no problem+json']),
      ],
    };
  }
  return undefined;
}

/**
 * Thrown by the HTTP layer for an answer an intermediary made itself (reported as a warning unless
 * --strict): the scenario cannot go on, since the service never saw the request, and what it was to show
 * is not exercised.
 */
export class IntermediaryAnswered extends Error {
  override readonly name = 'IntermediaryAnswered';
  constructor(readonly answer: IntermediaryAnswer) {
    super(`answered by ${answer.name} itself, not by the service (${answer.evidence.join(', ')})`);
  }
}
