/**
 * The conformance suite as a library: `runConformance` is what the `docproc conformance` command runs.
 * @example const code = await runConformance({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'k', profile: 'full' });
 */
export { SCENARIO_AREAS } from './run/areas.js';
export { conformanceCommand } from './run/command.js';
export { type ConformanceOptions, EXIT, MODEL_DEFAULTS, RUN_DEFAULTS, UsageError } from './run/config.js';
export { runConformance } from './run/run-conformance.js';
