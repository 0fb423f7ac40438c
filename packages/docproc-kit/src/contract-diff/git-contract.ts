/**
 * The bundled contract as it was at a git ref (`git:REF`): its file, and every file its relative `$ref`s
 * name (transitively), read with `git show REF:path` into a temp folder that mirrors the repository, so the
 * loader resolves them exactly as it would have in a checkout of that ref.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { load } from 'js-yaml';

/** A contract read from git into a temp folder; `close()` removes the folder. */
export interface GitContract {
  /** The contract's file in the temp folder. */
  path: string;
  close(): void;
}

/** An error meant for the user: the message says what is wrong (exit 2). */
export class ContractSourceError extends Error {}

function git(cwd: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new ContractSourceError(stderr.split('\n')[0] || (error as Error).message);
  }
}

/** The relative file references (`other.yaml#/x`, `./a/b.yaml`) anywhere in a parsed document. */
function relativeRefs(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) relativeRefs(item, into);
  else if (typeof node === 'object' && node !== null)
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(value)) {
        const file = value.split('#')[0];
        if (file) into.add(decodeURIComponent(file));
      } else relativeRefs(value, into);
    }
  return into;
}

/**
 * Reads the bundled contract at `ref` (a branch, tag or commit of the repository the kit runs from).
 * @example const base = readGitContract('main'); try { await loadContract(base.path); } finally { base.close(); }
 */
export function readGitContract(ref: string, specPath = bundledSpecPath): GitContract {
  if (ref === '' || ref.startsWith('-')) throw new ContractSourceError(`git:${ref} names no git ref`);
  const specDir = dirname(specPath);
  const top = git(specDir, ['rev-parse', '--show-toplevel']).trim();
  const prefix = git(specDir, ['rev-parse', '--show-prefix']).trim();
  let commit: string;
  try {
    commit = git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim();
  } catch {
    throw new ContractSourceError(`git:${ref}: no such commit in ${top} (a shallow clone may lack it)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'docproc-contract-git-'));
  try {
    const entry = posix.join(prefix, specPath.slice(specDir.length + 1));
    const pending = [entry];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (file.startsWith('../') || posix.isAbsolute(file))
        throw new ContractSourceError(`a $ref at ${ref} points outside the repository: ${file}`);
      const text = git(top, ['show', `${commit}:${file}`]);
      const target = join(dir, ...file.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
      let parsed: unknown;
      try {
        parsed = load(text);
      } catch {
        continue; // not YAML or JSON: the loader says so, with where
      }
      for (const ref of relativeRefs(parsed)) pending.push(posix.normalize(posix.join(posix.dirname(file), ref)));
    }
    return { path: join(dir, ...entry.split('/')), close: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
