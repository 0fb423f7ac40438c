import { integerOption } from '@docproc-kit/conformance/run/option-parsers.js';

// One parser for every integer option, the conformance command's (which lives in its own package) included.
export { integerOption };

/** A TCP port (0 picks a free one). */
export const portOption = integerOption(0, 65_535);
