/**
 * The conformance suite as a library: `runConformance` is what the `docproc conformance` command runs.
 * @example const code = await runConformance({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'k', profile: 'full' });
 */
export { SCENARIO_AREAS } from './definitions/areas.js';
export { type ConformanceOptions, EXIT, MODEL_DEFAULTS, RUN_DEFAULTS, UsageError } from './definitions/config.js';
export { conformanceCommand } from './run/command.js';
export { runConformance } from './run/run-conformance.js';
