import type { OpenAPIV3_1 } from 'openapi-types';

/** Near-misses of the run's key, made from it when sent so that the key itself is never kept or printed. */
export type KeyVariant = 'swapped-case' | 'nbsp-padded';

/**
 * Where a request carries the run's key instead of the documented header: query parameter, another header
 * (`value` builds it from the key; `curl` gives the reproducer's arguments for it from the environment
 * variable's shell word), a cookie, or a text field of an upload's multipart body.
 */
export type CredentialPlace =
  | { kind: 'query'; name: string }
  | { kind: 'header'; name: string; value: (key: string) => string; curl?: (keyWord: string) => string[] }
  | { kind: 'cookie'; name: string }
  | { kind: 'form-field'; name: string };

/**
 * Which key a request carries: the run's key, the second tenant's, none, a literal (wrong) one, a near-miss
 * of the run's key, or the run's key in a place the contract does not document (and no `x-api-key`).
 */
export type KeyChoice = 'primary' | 'secondary' | 'none' | { literal: string } | { variant: KeyVariant } | { misplaced: CredentialPlace };

/** One file part of a multipart upload sent as FormData (what real clients send). */
export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Uint8Array;
}

/** A request body: file parts (encoded by fetch's FormData) or exact bytes (hand-built or hostile). */
export type RequestBody = { kind: 'files'; parts: FilePart[] } | { kind: 'raw'; contentType?: string; data: Uint8Array };

/** What the contract documents for the request that was sent. */
export interface DocumentedTarget {
  /** `uploadDocuments (POST /api/v1/...)`, `listDocuments (DELETE: wrong method)` or `(unknown path)`. */
  label: string;
  /** The row of the coverage matrix this exchange counts in. */
  coverageKey: string;
  kind: 'operation' | 'wrong-method' | 'unknown-path';
  operationId?: string;
  /** Documented responses by status key (`200`, `4XX`, `default`). */
  responses: Record<string, OpenAPIV3_1.ResponseObject>;
}

/** The request half of an exchange, as sent (the key itself is never kept). */
export interface SentRequest {
  method: string;
  url: string;
  key: KeyChoice;
  /** Headers other than the key, as sent. */
  headers: Record<string, string>;
  body?: RequestBody;
}

/** One request and its response, recorded for checks, the coverage matrix and reproducers. */
export interface Exchange {
  seq: number;
  /** The X-Request-Id the suite sent, if any. */
  requestId?: string;
  request: SentRequest;
  target: DocumentedTarget;
  status: number;
  headers: Headers;
  /** The media type of the response without parameters, lower-cased ('' when absent). */
  mediaType: string;
  text: string;
  /** The parsed body when it is JSON-typed and parses; undefined otherwise. */
  json: unknown;
  /** Why a JSON-typed body did not parse. */
  jsonError?: string;
  durationMs: number;
  /** When the answer was complete, on this machine's clock (ms since the epoch); `durationMs` before it the request went out. */
  receivedAt?: number;
  /** A copy-paste curl command for this request, key redacted (writes body files on first call). */
  reproduce(): string;
}
