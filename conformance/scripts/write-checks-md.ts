// Regenerates conformance/CHECKS.md from the check catalog (conformance/checks-md.test.ts fails when it is stale).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../src/contract/contract.js';
import { catalogFor } from '../checks/index.js';
import { renderChecksMarkdown } from '../report/checks-md.js';

const catalog = catalogFor(await loadContract());
const target = fileURLToPath(new URL('../CHECKS.md', import.meta.url));
writeFileSync(target, renderChecksMarkdown(catalog));
console.log(`wrote ${target} (${catalog.length} checks)`);
