import { spawn } from 'node:child_process';
import { Command, Option } from 'commander';
import { bundledSpecPath, prismBinPath } from '../paths.js';

/** Options of `docproc mock`. */
export interface MockOptions {
  port: number;
  host: string;
  dynamic: boolean;
  spec: string;
}

/** Prism's command line for mocking the contract (exported so tests and benchmarks start the same Prism). */
export function prismMockArgs(options: MockOptions): string[] {
  const args = [prismBinPath(), 'mock', '--port', String(options.port), '--host', options.host];
  if (options.dynamic) args.push('--dynamic');
  args.push(options.spec);
  return args;
}

/** `docproc mock`: Prism's mock server on the bundled contract, from node_modules. */
export function mockCommand(): Command {
  return new Command('mock')
    .description("Run Prism's mock server on the contract: answers every operation with the contract's examples.")
    .addOption(new Option('-p, --port <port>', 'port to listen on').env('PORT').default(4011).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(new Option('--dynamic', 'generate random bodies from the schemas instead of serving the examples').default(false))
    .addOption(new Option('--spec <path>', 'contract to mock').default(bundledSpecPath, 'the bundled openapi/openapi.yaml'))
    .action((options: MockOptions) => {
      const child = spawn(process.execPath, prismMockArgs(options), { stdio: 'inherit' });
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
      child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
    });
}

/** Parses a TCP port (0 picks a free one). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`not a port: ${JSON.stringify(value)}`);
  }
  return port;
}
