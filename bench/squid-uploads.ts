// `npx tsx --conditions=docproc-source bench/squid-uploads.ts [--tries 10] [--rate 5M]`: uploads through a
// real Squid with Debian's default squid.conf, side by side, at loopback speed and at --rate:
//   - to an origin that reads every byte and accepts, only pausing 2 ms after each chunk it reads (any
//     server whose disk or CPU is a little slower than loopback);
//   - to the reference server, a small PDF and one a byte past its 25 MiB limit (the 413 of issue 49).
// Squid 5.7 (Debian 12) loses uploads to any origin that reads more slowly than the client sends (Squid
// bug 5405, fixed upstream by squid-cache/squid#1887): this shows the reset is Squid's, not the server's.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { writeOverLimitPair } from '@docproc-kit/test-support/large-upload.js';
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { startSquid } from '@docproc-kit/test-support/squid.js';

const { values: args } = parseArgs({ options: { tries: { type: 'string', default: '10' }, rate: { type: 'string', default: '5M' } } });
const TRIES = Number(args.tries);
const MAX_FILE_BYTES = 25 * 1024 * 1024;
const KEY = 'squid-bench-key';
const run = promisify(execFile);

const dir = await mkdtemp(join(tmpdir(), 'docproc-squid-bench-'));
const { small, big } = await writeOverLimitPair(dir, MAX_FILE_BYTES);

const slowOrigin = createServer((req, res) => {
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    req.pause();
    setTimeout(() => req.resume(), 2);
  });
  req.on('end', () => res.end(`read ${bytes} bytes`));
});
await new Promise<void>((resolve) => slowOrigin.listen(0, '127.0.0.1', resolve));
const slowUrl = `http://127.0.0.1:${(slowOrigin.address() as AddressInfo).port}/api/v1/documents/upload_files`;
const [server, squid] = await Promise.all([startReferenceServer({ apiKeys: [KEY], maxFileBytes: MAX_FILE_BYTES }), startSquid()]);

/** One `curl -x squid -F files[]=@small.pdf -F files[]=@big.pdf`: the status, or curl's exit code when it got none. */
async function upload(url: string, rate: string | undefined): Promise<string> {
  const curl = [
    ...['-sS', '--max-time', '120', '-x', squid.url, '-H', `X-API-Key: ${KEY}`, ...(rate ? ['--limit-rate', rate] : [])],
    ...['-F', `files[]=@${small}`, '-F', `files[]=@${big}`, '-o', '/dev/null', '-w', '%{http_code}', url],
  ];
  try {
    return (await run('curl', curl)).stdout;
  } catch (error) {
    return `curl exit ${(error as { code: number }).code}`;
  }
}

console.log(`Squid 5.7, Debian's squid.conf; ${TRIES} uploads of 25 MiB + 1 byte and a small PDF each`);
for (const rate of [undefined, args.rate]) {
  for (const [origin, url, wanted] of [
    ['origin reading every byte, 2 ms pause a chunk', slowUrl, '200'],
    ['reference server (413 at the limit)', `${server.baseUrl}/api/v1/documents/upload_files`, '413'],
  ] as const) {
    const answers: string[] = [];
    for (let i = 0; i < TRIES; i++) answers.push(await upload(url, rate));
    const got = answers.filter((a) => a === wanted).length;
    const others = [...new Set(answers.filter((a) => a !== wanted))].join(', ');
    console.log(`${(rate ?? 'loopback').padEnd(9)} ${origin.padEnd(48)} ${got}/${TRIES} got ${wanted}${others ? `; else ${others}` : ''}`);
  }
}
console.log(`Squid's verdicts: ${[...new Set(squid.accessLog().match(/TCP_\w+\/\d+/g) ?? [])].join(', ')}`);
await squid.stop();
await server.close();
slowOrigin.close();
await rm(dir, { recursive: true, force: true });
