import { describe, expect, it } from 'vitest';
import { createKeyring, DEV_API_KEY } from './keys.js';

describe('the API-key rule (every entry point builds its keyring with createKeyring)', () => {
  it('accepts the configured keys, each its own tenant, named by position unless a naming is given', () => {
    const keyring = createKeyring(['k1', 'k2']);
    expect([keyring.tenantOf('k1'), keyring.tenantOf('k2')]).toEqual(['tenant-1', 'tenant-2']);
    const named = createKeyring(['k1', 'k2'], (key) => `hashed-${key.length}-${key.at(-1)}`);
    expect([named.tenantOf('k1'), named.tenantOf('k2')]).toEqual(['hashed-2-1', 'hashed-2-2']);
  });

  it.each([
    ['no keys configured', undefined],
    ['an empty list', []],
  ])('accepts the dev key alone with %s', (_what, configured) => {
    const keyring = createKeyring(configured);
    expect(keyring.keys).toEqual([DEV_API_KEY]);
    expect(keyring.tenantOf(DEV_API_KEY)).toBe('tenant-1');
  });

  it.each([
    ['no key', undefined],
    ['an empty key', ''],
    ['the dev key, once keys are configured', DEV_API_KEY],
    ['a prefix of a key', 'k'],
    ['a key with a suffix', 'k1x'],
    ['a key in another case', 'K1'],
  ])('gives %s no tenant', (_what, presented) => {
    expect(createKeyring(['k1']).tenantOf(presented)).toBeUndefined();
  });

  it.each([
    ['an empty key', ['k1', '']],
    ['a key that is not a string', ['k1', 42 as unknown as string]],
  ])('refuses %s with a TypeError', (_what, keys) => {
    expect(() => createKeyring(keys)).toThrow(new TypeError('API keys must be non-empty strings'));
  });
});
