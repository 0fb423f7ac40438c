import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The two entries as a browser app's bundler sees them: esbuild, platform browser, code splitting. Any
// import of a Node built-in anywhere in their graph (node:fs, path, worker_threads, ...) is recorded, not
// resolved, so the test names every one of them.
const entries = {
  msw: fileURLToPath(new URL('./msw.ts', import.meta.url)),
  fetch: fileURLToPath(new URL('./fetch.ts', import.meta.url)),
};
const nodeImports: string[] = [];
const result = await build({
  entryPoints: entries,
  bundle: true,
  minify: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  // The other packages' TypeScript sources, as the tests read them (their `docproc-source` export).
  conditions: ['docproc-source'],
  outdir: 'browser-bundle',
  write: false,
  metafile: true,
  logLevel: 'silent',
  plugins: [
    {
      name: 'record-node-imports',
      setup(build) {
        build.onResolve({ filter: /.*/ }, ({ path, importer }) => {
          const bare = path.replace(/^node:/, '').split('/')[0]!;
          if (!path.startsWith('node:') && !builtinModules.includes(bare)) return undefined;
          nodeImports.push(`${importer} imports ${path}`);
          return { path, external: true };
        });
      },
    },
  ],
});
const outputs = result.metafile.outputs;

// Every input of the outputs an entry loads before it runs (static imports, not dynamic ones).
function staticInputs(entry: string): string[] {
  const [start] = Object.entries(outputs).find(([, o]) => o.entryPoint?.endsWith(`packages/msw/src/${entry}.ts`))!;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of (outputs[file] as Metafile['outputs'][string]).imports)
      if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path);
  };
  visit(start);
  return [...seen].flatMap((file) => Object.keys(outputs[file]!.inputs));
}
const allInputs = Object.values(outputs).flatMap((o) => Object.keys(o.inputs));

describe('docproc-kit/msw and docproc-kit/fetch bundled for the browser', () => {
  it('import no Node module anywhere in their graph', () => {
    expect(result.errors).toEqual([]);
    expect(nodeImports).toEqual([]);
  });

  it('carry none of the server: no OCR engine, no canvas, no Express, multer, lowdb or pino', () => {
    const server = allInputs.filter((i) => /node_modules\/(tesseract\.js|@napi-rs|express|multer|lowdb|pino|pdfjs-dist)\//.test(i));
    expect(server).toEqual([]);
  });

  it.each(Object.keys(entries))('load pdf.js only when first needed (%s: lazy chunks, not the entry)', (entry) => {
    const eager = staticInputs(entry);
    expect(eager.some((i) => i.includes('packages/reference/src/core.ts'))).toBe(true);
    expect(eager.filter((i) => /unpdf\/dist\/pdfjs/.test(i))).toEqual([]);
    expect(allInputs.some((i) => i.includes('unpdf/dist/pdfjs'))).toBe(true);
  });

  it('carry no PDF library at all: a seed writes its PDF directly', () => {
    expect(allInputs.filter((i) => i.includes('node_modules/pdf-lib/'))).toEqual([]);
  });
});
