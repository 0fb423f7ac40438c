import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../definitions/config.js';
import { createTransportSettings, parseHeaders } from './transport-options.js';

const dir = mkdtempSync(join(tmpdir(), 'transport-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('gateway headers', () => {
  it('are parsed as Name: value, the value trimmed and kept whole', () => {
    expect(parseHeaders(['X-Gateway-Token: a:b c ', 'Authorization:Bearer t'])).toEqual([
      ['X-Gateway-Token', 'a:b c'],
      ['Authorization', 'Bearer t'],
    ]);
  });

  it.each([
    ['no colon', 'X-Gateway-Token', /'Name: value'/],
    ['an empty name', ': v', /'Name: value'/],
    ['a space in the name', 'X Token: v', /'Name: value'/],
    ['the API key header', 'x-api-key: s3cret', /sets x-api-key itself \(the key is --api-key\)/],
    ['a header the suite varies', 'Content-Type: text/plain', /sets Content-Type itself/],
  ])('refuse %s, naming the header and never the value', (_, line, message) => {
    expect(() => parseHeaders([line])).toThrow(UsageError);
    expect(() => parseHeaders([line])).toThrow(message);
    try {
      parseHeaders([line]);
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('come from DOCPROC_HEADERS, one per line, unless --header gives some', () => {
    const env = { DOCPROC_HEADERS: 'X-A: 1\r\n\nX-B: 2\n' };
    expect(createTransportSettings({}, env).settings.headers).toEqual([
      ['X-A', '1'],
      ['X-B', '2'],
    ]);
    expect(createTransportSettings({ header: ['X-C: 3'] }, env).settings.headers).toEqual([['X-C', '3']]);
  });
});

describe('certificates', () => {
  it("trust --ca-file and NODE_EXTRA_CA_CERTS besides Node's own roots", () => {
    const { settings } = createTransportSettings({ caFile: file('ca.pem', PEM) }, { NODE_EXTRA_CA_CERTS: file('extra.pem', PEM) });
    expect(settings.ca).toContain(rootCertificates[0]);
    expect(settings.ca!.split('-----BEGIN CERTIFICATE-----').length - 1).toBe(rootCertificates.length + 2);
    expect(settings.caFiles).toEqual([join(dir, 'extra.pem'), join(dir, 'ca.pem')]);
  });

  it("leave Node's store alone when none is given", () => {
    expect(createTransportSettings({}, {}).settings.ca).toBeUndefined();
  });

  it.each([
    ['a missing file', () => join(dir, 'missing.pem'), /cannot read --ca-file .*missing\.pem: ENOENT/],
    ['a file without a certificate', () => file('key.pem', '-----BEGIN PRIVATE KEY-----\n'), /holds no PEM certificate/],
  ])('refuse %s as bad usage', (_, path, message) => {
    expect(() => createTransportSettings({ caFile: path() }, {})).toThrow(message);
  });

  it('ignore a NODE_EXTRA_CA_CERTS that cannot be read, with a warning, as Node does', () => {
    const { settings, warnings } = createTransportSettings({}, { NODE_EXTRA_CA_CERTS: join(dir, 'gone.pem') });
    expect(settings.ca).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^warning: cannot read NODE_EXTRA_CA_CERTS .*gone\.pem: ENOENT: ignored$/)]);
  });

  it('warn when --insecure turns verification off', () => {
    expect(createTransportSettings({ insecure: true }, {}).warnings).toEqual([expect.stringMatching(/^warning: --insecure: /)]);
    expect(createTransportSettings({}, {}).warnings).toEqual([]);
  });
});

describe('proxies', () => {
  it.each([
    [{ HTTPS_PROXY: 'http://p:3128' }, { https: 'http://p:3128/' }],
    [{ https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }, { https: 'http://lower:1/' }],
    [
      { HTTP_PROXY: 'p.example:3128', NO_PROXY: ' localhost ' },
      { http: 'http://p.example:3128/', noProxy: 'localhost' },
    ],
    [{ HTTP_PROXY: '' }, {}],
  ])('read %j as %j', (env, proxy) => {
    expect(createTransportSettings({}, env).settings.proxy).toEqual(proxy);
  });

  it('refuse a proxy that is not http or https', () => {
    expect(() => createTransportSettings({}, { HTTPS_PROXY: 'socks5://p:1080' })).toThrow(
      /HTTPS_PROXY must be an http or https proxy, not socks5:/,
    );
  });
});
