import { SCENARIO_AREAS } from '@docproc-kit/conformance';

// `docproc conformance` is the conformance package's own command (`docproc-conformance`), defined there once.
export { conformanceCommand } from '@docproc-kit/conformance';

/** The areas of the suite (`scenarios/<area>[-*].suite.ts`), selectable with `--only`. */
export const CONFORMANCE_AREAS = SCENARIO_AREAS;
