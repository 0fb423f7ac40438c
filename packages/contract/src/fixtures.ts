import { fileURLToPath } from 'node:url';

/**
 * The sample files every part of the kit uploads: real PDFs, scans and photos the contract accepts, and
 * files it refuses. The same folder from src/ (tsx, vitest) and dist/ (compiled): both sit one level below
 * the package root, next to fixtures/.
 */
export const fixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The absolute path of one fixture, e.g. `fixturePath('text.pdf')`. */
export function fixturePath(name: string): string {
  return fixturesDir + name;
}
