/**
 * One side of a contract diff, as the command line names it: a file path, or `git:REF` for the bundled
 * contract at a git ref. Each is validated as OpenAPI by the loader the contract package uses (an invalid
 * contract is a usage error, never a diff), and read twice: bundled (external `$ref`s pulled in, internal
 * ones kept, what the diff compares and where prose is found) and dereferenced (what the suite's catalog reads).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ContractSourceError, readGitContract } from './git-contract.js';

export { ContractSourceError } from './git-contract.js';

/** A contract read for a diff; `close()` removes what reading it left on disk. */
export interface ContractSource {
  /** As the user wrote it: `git:main`, `old.yaml`. */
  label: string;
  /** A file holding it (a temp copy for `git:`), for what reads a file (the suite's `--spec`, the type generator). */
  path: string;
  /** Parsed, external `$ref`s bundled in, internal ones as written. */
  raw: Record<string, unknown>;
  /** Validated and dereferenced. */
  contract: Contract;
  close(): void;
}

/**
 * Reads and validates `BASE` or `HEAD` of `docproc contract diff`; throws {@link ContractSourceError} saying
 * why it cannot be used.
 * @example const base = await readContractSource('git:main'); try { ... } finally { base.close(); }
 */
export async function readContractSource(label: string): Promise<ContractSource> {
  const fromGit = label.startsWith('git:') ? readGitContract(label.slice('git:'.length)) : undefined;
  const path = fromGit?.path ?? resolve(label);
  try {
    if (!fromGit && !existsSync(path))
      throw new ContractSourceError(`${label}: no such file (a path, or git:REF for the bundled contract at a git ref)`);
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    let contract: Contract;
    let raw: Record<string, unknown>;
    try {
      contract = await loadContract(path);
      raw = (await SwaggerParser.bundle(path)) as OpenAPIV3_1.Document as unknown as Record<string, unknown>;
    } catch (error) {
      throw new ContractSourceError(`${label} is not a valid OpenAPI contract: ${(error as Error).message.split('\n')[0]}`);
    }
    return { label, path, raw, contract, close: () => fromGit?.close() };
  } catch (error) {
    fromGit?.close();
    throw error;
  }
}
