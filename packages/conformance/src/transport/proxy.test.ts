import { describe, expect, it } from 'vitest';
import { proxyAuthorization, proxyRefusal, proxyShown } from './proxy.js';

describe('proxy credentials', () => {
  it('come from the proxy URL, percent-decoded, as Basic Proxy-Authorization', () => {
    const header = proxyAuthorization(new URL('http://ci%40corp:p%20w@proxy.example:3128'));
    expect(Buffer.from(header!.replace(/^Basic /, ''), 'base64').toString()).toBe('ci@corp:p w');
    expect(proxyAuthorization(new URL('http://proxy.example:3128'))).toBeUndefined();
  });

  it('never show in the name a message gives the proxy', () => {
    expect(proxyShown('http://ci:s3cret@proxy.example:3128')).toBe('http://proxy.example:3128');
  });
});

describe("a forward proxy's own answer", () => {
  const answer = (status: number, headers: Record<string, string>) => ({ status, headers: new Headers(headers) });
  it.each([
    [
      'a 403 with X-Squid-Error',
      answer(403, { 'x-squid-error': 'ERR_ACCESS_DENIED 0', server: 'squid/5.7' }),
      /^403 \(X-Squid-Error: ERR_ACCESS_DENIED 0, Server: squid\/5\.7\)$/,
    ],
    [
      'a 407 challenge',
      answer(407, { 'proxy-authenticate': 'Basic realm="corp"' }),
      /^407 \(Proxy-Authenticate: Basic realm="corp"\); the proxy wants credentials: give them in its URL/,
    ],
    [
      'a 502 whose Server and Via name the same proxy',
      answer(502, { server: 'squid', via: '1.1 gw (squid/5.7)' }),
      /^502 \(Server: squid\)$/,
    ],
  ])('is told from the service by %s', (_, given, said) => {
    expect(proxyRefusal(given)).toMatch(said);
  });

  it.each([
    [
      "the service's 403 the proxy forwarded (its X-Request-Id, the proxy's Via)",
      answer(403, { 'x-request-id': 'r-1', via: '1.1 gw (squid/5.7)', 'x-squid-error': 'x' }),
      'r-1',
    ],
    [
      "a gateway's 403 behind the proxy (Server names nginx, Via the proxy)",
      answer(403, { server: 'nginx', via: '1.1 gw (squid/5.7)' }),
      undefined,
    ],
    ['a success', answer(200, { 'x-squid-error': 'x' }), undefined],
  ])('is not %s', (_, given, sent) => {
    expect(proxyRefusal(given, sent)).toBeUndefined();
  });
});
