import { DEV_API_KEY } from '@docproc-kit/reference/api/keys.js';

// Which API keys `docproc serve` accepts, from `--api-key` or DOCPROC_API_KEYS, and the settings it refuses to
// start with: a setting that names no key (it would fall back to the public dev key) or a key an HTTP header
// cannot carry.

/** The items of a comma-separated setting, trimmed, empty ones left out. */
export const fromList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Why the key settings must stop start-up, or undefined: a key setting that is present but holds
 * no key would otherwise fall back to the public dev key and open the server.
 */
export function emptyKeySetting(flagKeys: string[], envKeys: string | undefined): string | undefined {
  if (flagKeys.some((key) => key.trim() === ''))
    return '--api-key was given an empty key. Give each --api-key a key, or leave the option out to use the dev key.';
  if (flagKeys.length === 0 && envKeys !== undefined && fromList(envKeys).length === 0) {
    return (
      `DOCPROC_API_KEYS is set but holds no key (${JSON.stringify(envKeys)}), and an empty setting would fall back to the public dev key ${DEV_API_KEY}. ` +
      'Set it to one or more keys (comma-separated), or unset it to use the dev key.'
    );
  }
  return undefined;
}

/**
 * What an API key may hold: printable ASCII other than space (0x21-0x7E). An HTTP header carries
 * other bytes unreliably (clients encode non-ASCII differently or refuse it, control characters are
 * refused, spaces at either end are stripped), so a key with them could never be sent intact.
 */
export const API_KEY_RULE = /^[\x21-\x7E]+$/;

/**
 * Why a configured key breaks {@link API_KEY_RULE}, naming the setting, the position and the code
 * point (never the key), or undefined when every key keeps it.
 * @example keyRuleViolation(['Kü'], undefined); // '--api-key has a key whose character 2 is U+00FC; ...'
 */
export function keyRuleViolation(flagKeys: string[], envKeys: string | undefined): string | undefined {
  const [setting, keys] = flagKeys.length > 0 ? ['--api-key', flagKeys] : ['DOCPROC_API_KEYS', fromList(envKeys)];
  for (const key of keys) {
    if (API_KEY_RULE.test(key)) continue;
    const chars = [...key];
    const at = chars.findIndex((char) => !API_KEY_RULE.test(char));
    const codePoint = `U+${chars[at]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return (
      `${setting} has a key whose character ${at + 1} is ${codePoint}; an API key is printable ASCII without spaces ` +
      '(0x21-0x7E: letters, digits and punctuation), since an HTTP header cannot carry anything else intact.'
    );
  }
  return undefined;
}

/**
 * The keys to accept (none: the dev key alone), or why the settings must stop start-up.
 * @example const keys = apiKeySettings(options.apiKey, process.env.DOCPROC_API_KEYS); if ('refusal' in keys) exit(2);
 */
export function apiKeySettings(flagKeys: string[], envKeys: string | undefined): { keys: string[] } | { refusal: string } {
  const refusal = emptyKeySetting(flagKeys, envKeys) ?? keyRuleViolation(flagKeys, envKeys);
  if (refusal) return { refusal };
  return { keys: flagKeys.length ? flagKeys : fromList(envKeys) };
}
