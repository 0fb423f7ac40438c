import { describe, expect, it } from 'vitest';
import { bypassesProxy, DIRECT, isDirect, proxyFor } from './transport-settings.js';

const PROXY = 'http://127.0.0.1:3128/';

describe('which requests go through the proxy', () => {
  it.each([
    ['https://staging.example.com', { https: PROXY }, PROXY],
    ['https://staging.example.com', { http: PROXY }, PROXY],
    ['http://staging.example.com', { https: PROXY }, undefined],
    ['http://staging.example.com', { http: PROXY }, PROXY],
    ['http://staging.example.com', { http: PROXY, noProxy: 'example.com' }, undefined],
    ['http://127.0.0.1:8080', { http: PROXY }, PROXY],
    ['http://127.0.0.1:8080', { http: PROXY, noProxy: '127.0.0.1' }, undefined],
  ])('%s with %j goes through %s', (url, proxy, through) => {
    expect(proxyFor(new URL(url), { ...DIRECT, proxy })).toBe(through);
  });

  it.each([
    ['api.example.com', 'example.com', true],
    ['api.example.com', '.example.com', true],
    ['api.example.com', '*.example.com', true],
    ['example.com', 'example.com', true],
    ['notexample.com', 'example.com', false],
    ['api.example.com', 'other.org, example.com', true],
    ['api.example.com', 'other.org example.com', true],
    ['api.example.com', '*', true],
    ['api.example.com:8443', 'example.com:8443', true],
    ['api.example.com:8443', 'example.com:443', false],
    ['[::1]:8080', '::1', true],
    ['[::1]:8080', '[::1]:8080', true],
    ['127.0.0.1', '127.0.0', false],
    ['api.example.com', '', false],
  ])('NO_PROXY for https://%s, given %j: %s', (host, noProxy, bypassed) => {
    expect(bypassesProxy(new URL(`https://${host}`), noProxy)).toBe(bypassed);
  });
});

describe('a direct transport', () => {
  it.each([
    [DIRECT, true],
    [{ ...DIRECT, insecure: true }, false],
    [{ ...DIRECT, ca: 'pem' }, false],
    [{ ...DIRECT, proxy: { https: PROXY } }, false],
    [{ ...DIRECT, proxy: { noProxy: '*' } }, true],
    [{ ...DIRECT, headers: [['X-A', 'b']] as Array<[string, string]> }, false],
  ])('%j is direct: %s (fetch needs no dispatcher of the run)', (settings, direct) => {
    expect(isDirect(settings)).toBe(direct);
  });
});
