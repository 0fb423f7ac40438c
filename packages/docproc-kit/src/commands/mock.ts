import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { Command, Option } from 'commander';
import type { LevelWithSilent } from 'pino';
import { listen } from '../http/http-server.js';
import { createLogger, LOG_LEVELS } from '../http/logging.js';
import { banner } from '../lifecycle/banner.js';
import { onShutdown } from '../lifecycle/shutdown.js';
import { portOption } from './number-options.js';
import { exitOnUsageError } from './usage-error.js';

/** Options of `docproc mock`. */
export interface MockOptions {
  port: number;
  host: string;
  dynamic: boolean;
  spec: string;
  logLevel: LevelWithSilent;
}

const isUrl = (spec: string) => /^https?:\/\//i.test(spec);

/** `docproc mock`: Prism's engine on the contract, behind the kit's own HTTP and multipart handling. */
export function mockCommand(): Command {
  return new Command('mock')
    .description(
      "Run the stateless mock: Prism's engine answers every operation with the contract's examples; uploads are parsed and judged as the contract says.",
    )
    .exitOverride(exitOnUsageError)
    .addOption(new Option('-p, --port <port>', 'port to listen on (0 picks a free one)').env('PORT').default(4011).argParser(portOption))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(new Option('--dynamic', 'generate random bodies from the schemas instead of serving the examples').default(false))
    .addOption(
      new Option('--spec <path>', 'contract to mock (a file or URL)').default(bundledSpecPath, 'the contract bundled with the kit'),
    )
    .addOption(new Option('--log-level <level>', 'request log level').env('DOCPROC_LOG_LEVEL').default('info').choices(LOG_LEVELS))
    .action(async (options: MockOptions) => {
      const logger = createLogger({ level: options.logLevel, pretty: process.stdout.isTTY === true });
      // Loaded here so `docproc serve` and `docproc conformance` do not pay for Prism at start-up.
      const [{ createPrismEngine }, { createMockApp }] = await Promise.all([
        import('../prism-mock/prism-engine.js'),
        import('../prism-mock/mock-app.js'),
      ]);
      let tmpDir: string | undefined;
      let http: Awaited<ReturnType<typeof listen>>;
      try {
        const engine = await createPrismEngine({ spec: options.spec, dynamic: options.dynamic, logger });
        tmpDir = await mkdtemp(join(tmpdir(), 'docproc-mock-'));
        const app = createMockApp({ engine, tmpDir, logger, specPath: isUrl(options.spec) ? undefined : options.spec });
        http = await listen(app, { port: options.port, host: options.host });
      } catch (error) {
        if (tmpDir) await rm(tmpDir, { recursive: true, force: true });
        process.stderr.write(`docproc mock: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      }
      process.stdout.write(
        banner(`docproc mock listening on ${http.url}${options.dynamic ? ' (dynamic bodies)' : ''}`, [
          ['API base URL', `${http.url}/api/v1`],
          ['API key', 'any non-empty x-api-key'],
          ['contract', options.spec],
          !isUrl(options.spec) && ['API reference', `${http.url}/docs`],
        ]),
      );

      onShutdown({ name: 'docproc mock' }, async () => {
        await http.close(2_000);
        await rm(tmpDir!, { recursive: true, force: true });
        logger.flush?.();
      });
    });
}
