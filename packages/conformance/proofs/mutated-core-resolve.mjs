// Test-only: a resolve hook that sends the reference core's name imports (`@docproc-kit/reference/...`) to the
// mutated copy of its sources named by DOCPROC_MUTATED_REFERENCE_SRC, so the fetch mock of the process that
// registers it runs that copy. Only the target's process registers it: the suite judging it (whose
// differential run holds the reference core as its oracle) runs in another process, on the unmutated core.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const REFERENCE = '@docproc-kit/reference/';

export async function resolve(specifier, context, next) {
  const src = process.env.DOCPROC_MUTATED_REFERENCE_SRC;
  if (src && specifier.startsWith(REFERENCE)) {
    const sub = specifier.slice(REFERENCE.length).replace(/\.js$/, '.ts');
    return next(pathToFileURL(join(src, sub)).href, context);
  }
  return next(specifier, context);
}
