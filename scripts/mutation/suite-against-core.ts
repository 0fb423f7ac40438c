// The test Stryker runs for each mutant: the reference core (the fetch mock over the memory store) in this
// process, behind a port, judged by the full conformance profile. Exit 0: the suite passed, the mutant
// survived; 1: the suite saw it. Run with the sandbox hook (register-sandbox.mjs) so the core is the mutated
// copy; `MUTATION_VERBOSE=1` prints the suite's output.
//
// A failing run is run again on a fresh core, and the mutant counts as killed only when some check failed
// both times (or both runs stopped): on a busy machine a timing check can fail once against the unmutated
// core (a retry race answered after a 200 ms run ended), and such a failure must not count as a kill.
//
// Each mutant's verdict is appended to the kills file (kills.ts), with the checks that failed in both runs, so
// `npm run mutation` can say which kills only the differential oracle's checks made.
import { recordVerdict } from './kills.js';
import { failedChecks } from './suite-run.js';

const first = await failedChecks();
const second = first.size > 0 ? await failedChecks() : new Set<string>();
const both = [...first].filter((id) => second.has(id));
const killed = both.length > 0;
if (first.size > 0) console.error(killed ? `killed by ${both.join(', ')}` : `not killed: ${[...first].join(', ')} failed once only`);
recordVerdict({ failedBoth: both, failedOnce: [...new Set([...first, ...second])].filter((id) => !both.includes(id)) });
process.exit(killed ? 1 : 0);
