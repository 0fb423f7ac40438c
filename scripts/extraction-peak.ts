// Reads files in extraction processes, one new process per file as the server starts them, and prints
// each result with the process's peak resident size (VmHWM), for the memory figures in docs/operating.md.
// `--phone-photo` reads a generated 12-megapixel photo stored sideways (EXIF orientation 6), in both
// byte orders, instead of files.
// Usage: npx tsx --conditions=docproc-source scripts/extraction-peak.ts [--memory-mb 512] (--phone-photo | FILE...)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_EXTRACTION_LIMITS, MAX_RENDER_PIXELS } from '@docproc-kit/reference/processing/extraction.js';
import { phonePhoto } from '@docproc-kit/test-support/phone-photo.js';
import type { ChildMessage } from 'docproc-kit/extraction/child-protocol.js';
import { startExtractionProcess } from 'docproc-kit/extraction/extraction-process.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'memory-mb': { type: 'string' }, 'phone-photo': { type: 'boolean' } },
});
const memoryMb = Number(values['memory-mb'] ?? DEFAULT_EXTRACTION_LIMITS.memoryMb);
const dir = await mkdtemp(join(tmpdir(), 'docproc-peak-'));
const files = [...positionals];
if (values['phone-photo']) {
  for (const byteOrder of ['II', 'MM'] as const) {
    const path = join(dir, `phone-photo-${byteOrder}.jpg`);
    await writeFile(
      path,
      await phonePhoto({ orientation: 6, byteOrder, lines: ['Shopping list', 'Item: PERSIMMON', 'Bring the receipt'] }),
    );
    files.push(path);
  }
}
const TYPES = { '.pdf': 'application/pdf', '.png': 'image/png' } as const;
for (const path of files) {
  const child = startExtractionProcess({ memoryMb });
  const started = performance.now();
  const answer = await Promise.race([
    new Promise<ChildMessage>((resolve) => {
      const job = { ...DEFAULT_EXTRACTION_LIMITS, maxRenderPixels: MAX_RENDER_PIXELS, memoryMb, path };
      child.send({ ...job, contentType: TYPES[extname(path) as keyof typeof TYPES] ?? 'image/jpeg' }, (message) => {
        if (message.type === 'result') resolve(message);
      });
    }),
    child.ended.then((end) => ({ ended: end.signal ?? end.code })),
  ]);
  const peakMiB = Math.round((child.peakBytes() ?? 0) / 2 ** 20);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${path}: peak ${peakMiB} MiB resident, ${seconds} s, ${JSON.stringify(answer).slice(0, 200)}`);
  child.kill();
  await child.ended;
}
await rm(dir, { recursive: true, force: true });
