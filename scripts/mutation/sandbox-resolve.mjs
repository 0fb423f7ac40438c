import { pathToFileURL } from 'node:url';

// Stryker mutates a copy of the repository (its sandbox), but node_modules there is a link to the original
// one, where @docproc-kit/reference points at the unmutated sources. This hook sends the reference package's
// name imports to the sources beside this file, so the mutated core is the one the suite judges.
//
// `npm run mutation` instruments the core once into a copy of its own (instrument.ts) and names that copy's
// root in DOCPROC_MUTATION_SANDBOX; without it, the sources are those beside this file (Stryker's sandbox).
//
// Except the conformance suite's differential oracle (packages/conformance/{src,dist}/oracle/): it runs the
// reference core beside the target to say what a correct service answers, so it must run the UNMUTATED core.
// A mutant that reached the oracle too would agree with itself, and the oracle's checks could never kill it.
// Its name imports pass through unchanged, to the original package. (Only its own imports: a module it reaches
// through another package, such as @docproc-kit/msw, is redirected from there, and is shared with the target.)
const REFERENCE = '@docproc-kit/reference/';
const SOURCES = process.env.DOCPROC_MUTATION_SANDBOX
  ? new URL('packages/reference/src/', pathToFileURL(`${process.env.DOCPROC_MUTATION_SANDBOX.replace(/\/?$/, '/')}`))
  : new URL('../../packages/reference/src/', import.meta.url);
const ORACLE = /\/packages\/conformance\/(?:src|dist)\/oracle\//;

/** Whether a module importing the reference core is the oracle's, which must judge with the unmutated core. */
export function importedByOracle(parentURL) {
  if (!parentURL?.startsWith('file:')) return false;
  return ORACLE.test(new URL(parentURL).pathname);
}

export async function resolve(specifier, context, next) {
  if (specifier.startsWith(REFERENCE) && !importedByOracle(context.parentURL)) {
    const sub = specifier.slice(REFERENCE.length).replace(/\.js$/, '.ts');
    return next(new URL(sub, SOURCES).href, context);
  }
  return next(specifier, context);
}
