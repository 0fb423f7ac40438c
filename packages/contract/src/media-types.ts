import { resolveRef } from './list-values.js';
import { UPLOAD_PATH } from './upload-limits.js';

/** The media types the contract gives the API's bodies. */
export interface MediaTypes {
  /** The upload operation's request body (`multipart/form-data`). */
  upload: string;
  /** Every success answer's body (`application/json`). */
  json: string;
  /** Every error answer's body, an RFC 9457 problem (`application/problem+json`). */
  problem: string;
}

type Node = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const keysOf = (document: unknown, node: unknown): string[] => Object.keys((resolveRef(document, node) as Node | undefined) ?? {});

// The one media type that every response of a kind (2xx, or 4xx and 5xx) names, or an error naming them all.
function oneMediaType(document: { paths?: Record<string, unknown> }, kind: 'success' | 'error'): string {
  const found = new Set<string>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const responses = (resolveRef(document, item) as Record<string, { responses?: Node } | undefined>)[method]?.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if ((kind === 'success') !== status.startsWith('2')) continue;
        for (const type of keysOf(document, (resolveRef(document, response) as { content?: unknown } | undefined)?.content))
          found.add(type);
      }
    }
  }
  if (found.size !== 1)
    throw new Error(`the contract's ${kind} answers name ${found.size === 0 ? 'no media type' : [...found].join(', ')}, not one`);
  return [...found][0]!;
}

/**
 * The media types of a parsed contract's bodies: the upload's request body, and the one type of its success
 * answers and of its error answers; throws naming what it lacks.
 * @example mediaTypesOf(load(yamlText)).problem; // 'application/problem+json'
 */
export function mediaTypesOf(document: { paths?: Record<string, unknown> }): MediaTypes {
  const upload = (document.paths?.[UPLOAD_PATH] as { post?: { requestBody?: unknown } } | undefined)?.post;
  const [uploadType, ...others] = keysOf(
    document,
    (resolveRef(document, upload?.requestBody) as { content?: unknown } | undefined)?.content,
  );
  if (uploadType === undefined || others.length > 0) throw new Error("the contract gives the upload's request body no one media type");
  return { upload: uploadType, json: oneMediaType(document, 'success'), problem: oneMediaType(document, 'error') };
}

/**
 * Whether a Content-Type header names `mediaType`: its start, case-insensitively, ending where a word does
 * (its parameters, such as `; boundary=...` or `; charset=...`, aside).
 * @example namesMediaType('Multipart/Form-Data; boundary=x', 'multipart/form-data'); // true
 */
export function namesMediaType(header: string | undefined, mediaType: string): boolean {
  if (header === undefined || header.slice(0, mediaType.length).toLowerCase() !== mediaType.toLowerCase()) return false;
  return !/^\w/.test(header.slice(mediaType.length));
}
