#!/usr/bin/env node
import { Command } from 'commander';
import { conformanceCommand } from './commands/conformance.js';
import { mockCommand } from './commands/mock.js';
import { proxyCommand } from './commands/proxy.js';
import { seedCommand } from './commands/seed.js';
import { serveCommand } from './commands/serve.js';

const program = new Command('docproc')
  .description('docproc-kit: mock server, reference server and conformance suite for the Document Processing Service.')
  .version('0.1.0')
  .showHelpAfterError()
  .addCommand(mockCommand())
  .addCommand(serveCommand())
  .addCommand(conformanceCommand())
  .addCommand(proxyCommand())
  .addCommand(seedCommand());

await program.parseAsync(process.argv);
