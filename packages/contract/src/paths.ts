import { fileURLToPath } from 'node:url';

// src/ (tsx, vitest) and dist/ (compiled) both sit one level below the package root, next to openapi/.
const root = new URL('../', import.meta.url);

/** Absolute path of the contract package's root folder (with a trailing separator). */
export const contractRoot = fileURLToPath(root);

/** Absolute path of the service's contract: the authored OpenAPI document. */
export const bundledSpecPath = fileURLToPath(new URL('openapi/openapi.yaml', root));

/** Absolute path of the mock controls' own contract (`/_mock/*`), which the reference server also serves. */
export const controlsSpecPath = fileURLToPath(new URL('openapi/mock-controls.yaml', root));
