#!/usr/bin/env node
import { Command } from 'commander';

// Each command is loaded only when it is the one asked for (all of them for help or an unknown name), so
// `docproc serve` never loads the conformance suite and starts without it installed.
const COMMANDS: Record<string, () => Promise<Command>> = {
  mock: async () => (await import('./commands/mock.js')).mockCommand(),
  serve: async () => (await import('./commands/serve.js')).serveCommand(),
  conformance: async () => (await import('./commands/conformance.js')).conformanceCommand(),
  proxy: async () => (await import('./commands/proxy.js')).proxyCommand(),
  seed: async () => (await import('./commands/seed.js')).seedCommand(),
  contract: async () => (await import('./commands/contract.js')).contractCommand(),
};

const program = new Command('docproc')
  .description('docproc-kit: mock server, reference server and conformance suite for the Document Processing Service.')
  .version('0.1.0')
  .showHelpAfterError();

const asked = process.argv[2];
for (const name of asked && asked in COMMANDS ? [asked] : Object.keys(COMMANDS)) program.addCommand(await COMMANDS[name]!());

await program.parseAsync(process.argv);
