// Starts the clean-room service: --port N --api-key A [--api-key B] --max-file-bytes N --max-files N
// [--run-ms N] [--vary]; prints its URL.
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createApp } from './app.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'api-key': { type: 'string', multiple: true, default: [] },
    'max-file-bytes': { type: 'string', default: '26214400' },
    'max-files': { type: 'string', default: '20' },
    'run-ms': { type: 'string', default: '20' },
    vary: { type: 'boolean', default: false },
  },
});
const apiKeys = values['api-key'] ?? [];
if (apiKeys.length === 0 || apiKeys.some((k) => !/^[\x21-\x7E]+$/.test(k))) {
  process.stderr.write('give one or more --api-key of printable ASCII without spaces\n');
  process.exit(2);
}
const app = createApp({
  apiKeys,
  maxFileBytes: Number(values['max-file-bytes']),
  maxFiles: Number(values['max-files']),
  runMs: Number(values['run-ms']),
  vary: values.vary === true,
});
const server = app.listen(Number(values.port), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`http://127.0.0.1:${port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
