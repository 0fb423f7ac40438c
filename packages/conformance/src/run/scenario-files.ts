import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The scenario files sit beside this folder: src/scenarios/*.suite.ts in the repository, dist/scenarios/*.suite.js installed.
const scenariosDir = fileURLToPath(new URL('../scenarios/', import.meta.url));

/**
 * The scenario files a run loads, as absolute paths: those of the `only` areas (`list` selects list.suite
 * and list-filters.suite), all without it. The model run is the longest file by far (it runs sequences for
 * --model-time-ms): it starts first, so the other files run beside it instead of after it; then the larger
 * files, which hold more scenarios. The differential run (--oracle-time-ms) is the second longest: it starts
 * second, beside the model run.
 */
export function scenarioFiles(only?: readonly string[]): string[] {
  const files = readdirSync(scenariosDir)
    .filter((name) => /\.suite\.[cm]?[jt]s$/.test(name) && !name.endsWith('.d.ts'))
    .filter((name) => !only || only.some((area) => name.startsWith(`${area}.`) || name.startsWith(`${area}-`)))
    .map((name) => ({
      path: `${scenariosDir}${name}`,
      model: name.startsWith('model.') ? 0 : name.startsWith('oracle.') ? 1 : 2,
      size: statSync(`${scenariosDir}${name}`).size,
    }));
  return files.sort((a, b) => a.model - b.model || b.size - a.size || a.path.localeCompare(b.path)).map((f) => f.path);
}
