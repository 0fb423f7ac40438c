import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this test runs in. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** What a finished command printed and how it ended. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (never throws on a non-zero exit) and kills it after `timeoutMs`. */
export function run(
  command: string,
  args: string[],
  { cwd, timeoutMs, env = {} }: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          return reject(new Error(`${command} ${args.join(' ')} did not finish (${error.message}):\n${stderr}`));
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/** Like {@link run}, but a non-zero exit is an error that carries the output. */
export async function runOk(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * Copies the working tree (tracked and untracked-but-not-ignored files, as a clone with these changes would
 * have) to a temp dir, with the repository's node_modules linked in, so packing there (whose lifecycle
 * scripts rebuild dist/) never rewrites files that other tests of this checkout are running. Into `into` when
 * given (a new directory), else a new temp dir.
 */
export async function copyWorkingTree(into?: string): Promise<string> {
  const dir = into ?? (await mkdtemp(join(tmpdir(), 'docproc-clone-')));
  const { stdout } = await runOk('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    timeoutMs: 30_000,
  });
  for (const file of stdout.split('\0').filter(Boolean)) {
    const from = join(repoRoot, file);
    if (!(await stat(from).catch(() => undefined))?.isFile()) continue; // deleted but not yet committed
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await cp(from, join(dir, file));
  }
  await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** One packed tarball: its path and the files it holds (as `npm pack --json` lists them). */
export interface PackedTarball {
  tarball: string;
  files: string[];
  size: number;
}

/** Runs `npm pack` in `cwd` (with `args`, e.g. `-w @docproc-kit/client`), which runs the package's build scripts. */
export async function npmPack(cwd: string, args: string[], destination: string, timeoutMs: number): Promise<PackedTarball> {
  const { stdout } = await runOk('npm', ['pack', ...args, '--json', '--pack-destination', destination], { cwd, timeoutMs });
  const [packed] = JSON.parse(stdout) as [{ filename: string; size: number; files: { path: string }[] }];
  return { tarball: join(destination, packed.filename), files: packed.files.map((f) => f.path).sort(), size: packed.size };
}

/** The workspace packages in the order npm builds them; docproc-kit depends on all the others. */
export const WORKSPACES = [
  '@docproc-kit/contract',
  '@docproc-kit/reference',
  '@docproc-kit/client',
  '@docproc-kit/msw',
  '@docproc-kit/conformance',
  'docproc-kit',
] as const;

/**
 * Packs workspace packages of this checkout as they are: the vitest global setup has just built every
 * dist/, and `--ignore-scripts` keeps packing from rebuilding (so it writes nothing in the checkout that
 * other tests run). Our packages are not on the registry: a project installs all the tarballs it needs.
 */
export async function packWorkspaces(names: readonly string[], destination: string, timeoutMs: number): Promise<PackedTarball[]> {
  const packed: PackedTarball[] = [];
  for (const name of names) packed.push(await npmPack(repoRoot, ['-w', name, '--ignore-scripts'], destination, timeoutMs));
  return packed;
}

/**
 * A new project in a temp dir with the given package.json fields and tarballs installed, as a team would
 * do. Registry packages come from the npm cache when there (`--prefer-offline`); ours only from the tarballs.
 */
export async function scratchProject(fields: Record<string, unknown>, tarballs: string[], timeoutMs: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docproc-scratch-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, ...fields }, null, 2));
  await runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], { cwd: dir, timeoutMs });
  return dir;
}

/** The packages installed in a project, by name (from npm's hidden lockfile of node_modules). */
export async function installedPackages(project: string): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(project, 'node_modules', '.package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  return Object.keys(lock.packages)
    .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .sort();
}

/** Bytes of every file under `dir` (symlinks not followed). */
export async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Removes temp dirs made by this module; safe with undefined entries. */
export async function removeAll(dirs: (string | undefined)[]): Promise<void> {
  await Promise.all(dirs.filter((d): d is string => d !== undefined).map((d) => rm(d, { recursive: true, force: true })));
}
