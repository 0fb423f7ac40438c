// Stryker mutates a copy of the repository (its sandbox), but node_modules there is a link to the original
// one, where @docproc-kit/reference points at the unmutated sources. This hook sends the reference package's
// name imports to the sources beside this file, so the mutated core is the one the suite judges.
const REFERENCE = '@docproc-kit/reference/';

export async function resolve(specifier, context, next) {
  if (specifier.startsWith(REFERENCE)) {
    const sub = specifier.slice(REFERENCE.length).replace(/\.js$/, '.ts');
    return next(new URL(`../../packages/reference/src/${sub}`, import.meta.url).href, context);
  }
  return next(specifier, context);
}
