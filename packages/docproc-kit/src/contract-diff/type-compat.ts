/**
 * BASE's typed client compiled against HEAD: both contracts' types generated with openapi-typescript (as the
 * contract package's generator writes them, file parts as Blob) into a temp folder, and a small program
 * written to BASE's types (each operation's path, the parameters and body it sends, the response fields it
 * reads) type-checked with the TypeScript API against HEAD's. Each diagnostic is named by the statement it
 * falls on: which operation, and what of it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HTTP_METHODS } from '@docproc-kit/contract/load-contract.js';

/** One way BASE's client no longer compiles against HEAD. */
export interface TypeFailure {
  /** `GET /api/v1/documents/get_documents: the query parameters it sends`. */
  what: string;
  /** TypeScript's message: the most specific line of its chain. */
  message: string;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

async function generateTypes(specPath: string): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const { default: ts } = await import('typescript');
  const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
  const nul = ts.factory.createLiteralTypeNode(ts.factory.createNull());
  const ast = await openapiTS(pathToFileURL(specPath), {
    transform(schema) {
      if (schema.format !== 'binary') return undefined;
      const nullable = schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
      return nullable ? ts.factory.createUnionTypeNode([blob, nul]) : blob;
    },
  });
  return astToString(ast);
}

/** A statement of the program and what it stands for. */
interface Statement {
  /** `METHOD /path`. */
  operation: string;
  what: string;
  code: string;
}

const key = (k: string | number) => JSON.stringify(String(k));

/** The program's statements for one contract's operations (dereferenced: no `$ref` left). */
function statements(document: Node): Statement[] {
  const out: Statement[] = [];
  let n = 0;
  for (const [path, item] of Object.entries(isNode(document.paths) ? document.paths : {})) {
    for (const method of HTTP_METHODS) {
      const op = isNode(item) ? item[method] : undefined;
      if (!isNode(op)) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const base = `Base[${key(path)}][${key(method)}]`;
      const head = `At<At<Head, ${key(path)}>, ${key(method)}>`;
      const add = (what: string, code: string) =>
        out.push({ operation: name, what: `${name}: ${what}`, code: code.replace(/\$/g, String(n++)) });
      add('the operation it calls', `const present$: 'present' = null as unknown as (${head} extends undefined ? 'missing' : 'present');`);
      for (const where of ['query', 'header', 'path', 'cookie'])
        add(
          `the ${where} parameters it sends`,
          `declare const p$: ${base}["parameters"][${key(where)}]; const h$: At<At<${head}, "parameters">, ${key(where)}> = p$;`,
        );
      const body = isNode(op.requestBody) && isNode(op.requestBody.content) ? Object.keys(op.requestBody.content) : [];
      for (const media of body)
        add(
          `the ${media} body it sends`,
          `declare const b$: NonNullable<${base}["requestBody"]>["content"][${key(media)}]; const h$: At<At<NonNullable<At<${head}, "requestBody">>, "content">, ${key(media)}> = b$;`,
        );
      for (const [status, response] of Object.entries(isNode(op.responses) ? op.responses : {})) {
        const content = isNode(response) && isNode(response.content) ? Object.keys(response.content) : [];
        const at = `At<At<At<${head}, "responses">, ${key(status)}>, "content">`;
        for (const media of content)
          add(
            `the fields it reads of a ${status} ${media} answer`,
            `declare const r$: At<${at}, ${key(media)}>; const b$: ${base}["responses"][${key(status)}]["content"][${key(media)}] = r$;`,
          );
      }
    }
  }
  return out;
}

const PRELUDE = `import type { paths as Base } from './base.js';
import type { paths as Head } from './head.js';
/** T[K] when HEAD has it (a union member at a time; a status as the number key the generator writes), else never: what HEAD no longer sends is no failure. */
type At<T, K extends PropertyKey> = T extends unknown
  ? K extends keyof T ? T[K] : K extends \`\${infer N extends number}\` ? (N extends keyof T ? T[N] : never) : never
  : never;
`;

/**
 * Compiles BASE's client types against HEAD's; resolves to every failure, named (empty when it compiles).
 * @example await typeFailures(base.path, base.contract.document, head.path)
 */
export async function typeFailures(basePath: string, baseDocument: object, headPath: string): Promise<TypeFailure[]> {
  const { default: ts } = await import('typescript');
  const dir = mkdtempSync(join(tmpdir(), 'docproc-contract-types-'));
  try {
    writeFileSync(join(dir, 'base.ts'), await generateTypes(basePath));
    writeFileSync(join(dir, 'head.ts'), await generateTypes(headPath));
    const program = statements(baseDocument as Node);
    const lines = PRELUDE.split('\n');
    const first = lines.length;
    writeFileSync(join(dir, 'client.ts'), `${PRELUDE}${program.map((s) => s.code).join('\n')}\nexport {};\n`);
    const compiled = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const failures: TypeFailure[] = [];
    const seen = new Set<number>();
    for (const diagnostic of ts.getPreEmitDiagnostics(compiled)) {
      // The chain's last line is its most specific: the property missing, the member no longer allowed.
      const chain = ts
        .flattenDiagnosticMessageText(diagnostic.messageText, '\n')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const message = chain.at(-1)!.slice(0, 400);
      const line =
        diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line : -1;
      const statement = diagnostic.file?.fileName.endsWith('client.ts') ? program[line - (first - 1)] : undefined;
      if (!statement) {
        failures.push({ what: `the generated types (${diagnostic.file?.fileName ?? 'no file'})`, message });
        continue;
      }
      if (seen.has(line)) continue;
      seen.add(line);
      failures.push({ what: statement.what, message });
    }
    // An operation HEAD no longer has fails every statement about it: its absence is the one failure named.
    const missing = new Set(failures.filter((f) => f.what.endsWith(': the operation it calls')).map((f) => f.what.split(':')[0]));
    return failures.filter((f) => f.what.endsWith(': the operation it calls') || !missing.has(f.what.split(':')[0]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
