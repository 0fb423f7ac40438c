import { readFileSync } from 'node:fs';
import { conformanceCommand } from './run/command.js';

// `docproc-conformance` (and `npx @docproc-kit/conformance`): the same command as `docproc conformance`.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
await conformanceCommand('docproc-conformance').version(version).showHelpAfterError().parseAsync(process.argv);
