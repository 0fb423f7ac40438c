import { apiKeySettings, fromList } from '../server/api-key-settings.js';
import type { ServeOptions } from './serve-options.js';

/** What `docproc serve` reads beside its parsed options: the env lists and the terminal. */
export interface ServeSettings {
  /** The accepted API keys (none: the dev key). */
  apiKeys: string[];
  corsOrigins: string[];
  /** Log lines for people rather than machines. */
  pretty: boolean;
}

/**
 * The settings of a `docproc serve` run, or why its keys are refused: `--api-key` wins over DOCPROC_API_KEYS,
 * `--cors-origin` over DOCPROC_CORS_ORIGINS, and `--log-format auto` is pretty on a terminal.
 * @example serveSettings(options, process.env, process.stdout.isTTY === true)
 */
export function serveSettings(options: ServeOptions, env: NodeJS.ProcessEnv, onTerminal: boolean): ServeSettings | { refusal: string } {
  const keySettings = apiKeySettings(options.apiKey, env.DOCPROC_API_KEYS);
  if ('refusal' in keySettings) return keySettings;
  return {
    apiKeys: keySettings.keys,
    corsOrigins: options.corsOrigin.length ? options.corsOrigin : fromList(env.DOCPROC_CORS_ORIGINS),
    pretty: options.logFormat === 'pretty' || (options.logFormat === 'auto' && onTerminal),
  };
}
