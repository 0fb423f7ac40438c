import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { bundledSpecPath } from '../paths.js';

/** A parsed (not dereferenced) OpenAPI document: enough for the readers of `paths` and `$ref`s. */
export type RawDocument = { paths?: Record<string, unknown> };

/**
 * The bundled contract as parsed YAML, read once per process for every value the server takes from it
 * at start-up (operations, upload limits, list values).
 */
export const BUNDLED_DOCUMENT: RawDocument = load(readFileSync(bundledSpecPath, 'utf8')) as RawDocument;
