import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FilePart, KeyVariant, SentRequest } from '../definitions/exchange.js';

/** Quotes a string for a POSIX shell. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The environment variables reproducers use instead of the keys themselves. */
export const KEY_ENV = { primary: 'DOCPROC_API_KEY', secondary: 'DOCPROC_SECOND_API_KEY' } as const;

/** The shell word reproducers use for the run's key (a recorded URL carries it in place of a key sent in the query). */
export const KEY_WORD = `$${KEY_ENV.primary}`;

// Every `$` of a recorded URL but the key word's own, which the shell must expand.
const NOT_THE_KEY_WORD = new RegExp(`\\$(?!${KEY_ENV.primary}\\b)`, 'g');

function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').slice(-80) || 'file';
}

/** The near-misses of the run's key as shell words that build them from `$DOCPROC_API_KEY`. */
const KEY_VARIANT_SHELL: Record<KeyVariant, string> = {
  'swapped-case': `"x-api-key: $(printf %s "$${KEY_ENV.primary}" | tr a-zA-Z A-Za-z)"`,
  'nbsp-padded': `"x-api-key: $(printf '\\240')$${KEY_ENV.primary}$(printf '\\240')"`,
};

/**
 * curl `-F` arguments that send `parts` from files written under `bodyDir` (named `<prefix>-<i>-<name>`),
 * named as `shownAs` (the same folder relative to the report's, so a downloaded CI artifact replays as is).
 * @example fileFormArgs(parts, '/ci/reports/docproc-conformance-run1/bodies', '17', 'docproc-conformance-run1/bodies') // ['-F', "'files[]=@docproc-conformance-run1/bodies/17-0-a.pdf;filename=\"a.pdf\";type=application/pdf'"]
 */
export function fileFormArgs(parts: FilePart[], bodyDir: string, prefix: string, shownAs = bodyDir): string[] {
  mkdirSync(bodyDir, { recursive: true });
  return parts.flatMap((part, index) => {
    const name = `${prefix}-${index}-${safeName(part.filename)}`;
    writeFileSync(join(bodyDir, name), part.data);
    const filename = part.filename.replace(/["\\]/g, '\\$&');
    return ['-F', shellQuote(`${part.field}=@${join(shownAs, name)};filename="${filename}";type=${part.contentType}`)];
  });
}

/** How a reproducer names its body files and reaches the target as the run did. */
export interface CurlOptions {
  /** How the command names `bodyDir` (default: `bodyDir` itself). */
  shownAs?: string;
  /** curl options of the run's transport (transport.ts's curlTransportArgs): certificates, -k, gateway headers from variables. */
  transportArgs?: string[];
}

/**
 * Builds a curl command that sends the same request, with the key as `$DOCPROC_API_KEY` and a gateway's
 * headers as variables too; request bodies are written under `bodyDir`, named as `shownAs` says.
 * @example curlCommand(exchange.request, '/ci/reports/docproc-conformance-run1/bodies', 17, { shownAs: 'docproc-conformance-run1/bodies' })
 */
export function curlCommand(
  request: SentRequest,
  bodyDir: string,
  seq: number,
  { shownAs = bodyDir, transportArgs = [] }: CurlOptions = {},
): string {
  const misplaced = typeof request.key === 'object' && 'misplaced' in request.key ? request.key.misplaced : undefined;
  // A key in the query string is written as the variable in the recorded URL: the shell must expand it there.
  const url =
    misplaced?.kind === 'query' ? `"${request.url.replace(/["\\`]/g, '\\$&').replace(NOT_THE_KEY_WORD, '\\$')}"` : shellQuote(request.url);
  const args = ['curl', '-sS', '-i', '-g', ...transportArgs, '-X', request.method, url];
  if (request.key === 'primary' || request.key === 'secondary') args.push('-H', `"x-api-key: $${KEY_ENV[request.key]}"`);
  else if (misplaced?.kind === 'header')
    args.push(...(misplaced.curl?.(KEY_WORD) ?? ['-H', `"${misplaced.name}: ${misplaced.value(KEY_WORD)}"`]));
  else if (misplaced?.kind === 'cookie') args.push('-b', `"${misplaced.name}=${KEY_WORD}"`);
  else if (misplaced?.kind === 'form-field') args.push('-F', `"${misplaced.name}=${KEY_WORD}"`);
  else if (request.key !== 'none' && typeof request.key === 'object' && 'variant' in request.key)
    args.push('-H', KEY_VARIANT_SHELL[request.key.variant]);
  else if (typeof request.key === 'object' && 'literal' in request.key) args.push('-H', shellQuote(`x-api-key: ${request.key.literal}`));
  for (const [name, value] of Object.entries(request.headers)) args.push('-H', shellQuote(`${name}: ${value}`));
  const body = request.body;
  if (body?.kind === 'files') {
    args.push(...fileFormArgs(body.parts, bodyDir, String(seq), shownAs));
  } else if (body?.kind === 'raw') {
    mkdirSync(bodyDir, { recursive: true });
    writeFileSync(join(bodyDir, `${seq}-body.bin`), body.data);
    // `content-type:` with no value makes curl send none, as fetch does for a bare byte body.
    if (!Object.keys(request.headers).some((h) => h.toLowerCase() === 'content-type')) args.push('-H', 'content-type:');
    args.push('--data-binary', shellQuote(`@${join(shownAs, `${seq}-body.bin`)}`));
  }
  return args.join(' ');
}
