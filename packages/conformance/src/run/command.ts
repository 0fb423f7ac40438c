import { integerOptions } from '@docproc-kit/contract/decimal-integer.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { SCENARIO_AREAS as CONFORMANCE_AREAS } from '../definitions/areas.js';
import {
  type ConformanceOptions,
  EXIT,
  MODEL_DEFAULTS,
  ORACLE_DEFAULTS,
  RUN_DEFAULTS,
  THOROUGH,
  UsageError,
} from '../definitions/config.js';
import { diffCommand } from './diff-command.js';
import { runConformance } from './run-conformance.js';

/** An option parser for integers from `min` to `max` (plain decimal digits only, never coerced): a refusal is a usage error. */
const integerOption = integerOptions((message) => new InvalidArgumentError(message));

function areaList(value: string): string[] {
  const areas = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const unknown = areas.filter((a) => !(CONFORMANCE_AREAS as readonly string[]).includes(a));
  if (unknown.length || areas.length === 0) throw new InvalidArgumentError(`expected some of ${CONFORMANCE_AREAS.join(', ')}`);
  return areas;
}

/** `--rate-limit`: a positive number of requests per second, or `auto`. */
function rateLimitOption(value: string): number | 'auto' {
  if (value.trim().toLowerCase() === 'auto') return 'auto';
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0))
    throw new InvalidArgumentError(`expected requests per second (e.g. 10 or 0.5) or auto, not ${JSON.stringify(value)}.`);
  return n;
}

/** `--min-coverage`: a percentage from 0 to 100 (a fraction allowed). */
function percentOption(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || n > 100)
    throw new InvalidArgumentError(`expected a percentage from 0 to 100, not ${JSON.stringify(value)}.`);
  return n;
}

/** Reads a boolean environment variable: true/1/yes or false/0/no/empty (case-insensitive). */
export function envFlag(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'no'].includes(value)) return false;
  if (['1', 'true', 'yes'].includes(value)) return true;
  throw new UsageError(`${name} must be true or false, not ${JSON.stringify(env[name])}`);
}

/**
 * The conformance command: `docproc-conformance` on its own (`name` given), `docproc conformance` as a
 * subcommand of the kit's CLI. Judges a deployment (or a mock) against the contract.
 * @example await conformanceCommand('docproc-conformance').parseAsync(process.argv);
 */
export function conformanceCommand(name = 'conformance'): Command {
  const env = (variable: string) => `DOCPROC_${variable}`;
  const command: Command = new Command(name);
  command
    // `diff a b --html x` leaves `--html` to this command's own option; DOCPROC_HTML names a run's page, never the diff's.
    .addCommand(diffCommand(() => (command.getOptionValueSource('html') === 'cli' ? command.opts<{ html?: string }>().html : undefined)))
    // `diff` needs none of the run's options: the run's mandatory ones are not asked of it.
    .hook('preSubcommand', () => {
      for (const option of command.options) option.mandatory = false;
    });
  return (
    command
      .description(
        'Run the conformance suite against a deployment: exit 0 when every check passed, 1 when one failed, 2 on bad usage or an unreachable target.',
      )
      .addHelpText(
        'after',
        '\nThrough a forward proxy (HTTP_PROXY, HTTPS_PROXY): an upload whose answer the proxy loses (a reset or an empty reply) is sent\nstraight to the target (through the proxy again when the target cannot be reached without it); an answer that arrives so is judged,\nwith a warning on http.responds naming the hop that lost it, and none either way is an http.responds failure that says so.',
      )
      .addOption(
        new Option('--base-url <url>', "the service's base_url, as in the contract's servers (without /api/v1)")
          .env(env('BASE_URL'))
          .makeOptionMandatory(),
      )
      .addOption(new Option('--api-key <key>', 'API key the suite uploads and reads with').env(env('API_KEY')).makeOptionMandatory())
      .addOption(
        new Option('--second-api-key <key>', "another tenant's key: enables the tenant-isolation checks").env(env('SECOND_API_KEY')),
      )
      .addOption(
        new Option('--profile <profile>', 'contract: stateless-safe, passes against a mock; full: adds stateful behaviour')
          .choices(['full', 'contract'])
          .env(env('PROFILE'))
          .default('full'),
      )
      .addOption(
        new Option('--spec <path-or-url>', 'the contract to judge against')
          .env(env('SPEC'))
          .default(bundledSpecPath, 'the bundled openapi/openapi.yaml'),
      )
      .addOption(
        new Option('--timeout-ms <n>', 'how long a document may take to finish processing')
          .env(env('TIMEOUT_MS'))
          .argParser(integerOption(1))
          .default(60_000),
      )
      .addOption(
        new Option('--request-timeout-ms <n>', 'how long one request may take')
          .env(env('REQUEST_TIMEOUT_MS'))
          .argParser(integerOption(1))
          .default(30_000),
      )
      .addOption(
        new Option('--max-files <n>', "the deployment's files-per-upload limit: enables the 413 too_many_files check")
          .env(env('MAX_FILES'))
          .argParser(integerOption(1)),
      )
      .addOption(
        new Option('--max-file-bytes <n>', "the deployment's per-file size limit: enables the 413 file_too_large check")
          .env(env('MAX_FILE_BYTES'))
          .argParser(integerOption(1)),
      )
      .addOption(new Option('--junit <file>', 'write JUnit XML here').env(env('JUNIT')))
      .addOption(new Option('--report <file>', 'write the JSON report (every check, coverage matrix) here').env(env('REPORT')))
      .addOption(
        new Option('--html <file>', 'write the report as one self-contained HTML page here (no network needed to open it)').env(
          env('HTML'),
        ),
      )
      // Not .env(): commander turns a boolean on for any value, and DOCPROC_STRICT=false must mean false.
      .addOption(
        new Option('--strict', 'undocumented response properties fail instead of warning (env: DOCPROC_STRICT=true|false)').default(false),
      )
      .addOption(
        new Option('--only <areas>', `run only these comma-separated areas: ${CONFORMANCE_AREAS.join(', ')}`)
          .env(env('ONLY'))
          .argParser(areaList),
      )
      .addOption(
        new Option('--workers <n>', 'scenario files run at once (default: 2); 1 for a deployment that must see one client at a time')
          .env(env('WORKERS'))
          .argParser(integerOption(1, 16)),
      )
      .addOption(
        new Option('--seed <n>', 'seed of the random sequences of the model run (default: a random one, printed with the results)')
          .env(env('SEED'))
          .argParser(integerOption(0, 2 ** 31 - 1)),
      )
      .addOption(
        new Option('--model-runs <n>', `random sequences the model run tries at most (default: ${MODEL_DEFAULTS.runs})`)
          .env(env('MODEL_RUNS'))
          .argParser(integerOption(1)),
      )
      .addOption(
        new Option(
          '--model-time-ms <n>',
          `how long the model run starts new sequences (a failing one is then shrunk for as long again; default: ${MODEL_DEFAULTS.timeMs})`,
        )
          .env(env('MODEL_TIME_MS'))
          .argParser(integerOption(1)),
      )
      .addOption(
        new Option(
          '--oracle-runs <n>',
          `random sequences the differential run (the reference core as an oracle) tries at most (default: ${ORACLE_DEFAULTS.runs})`,
        )
          .env(env('ORACLE_RUNS'))
          .argParser(integerOption(1)),
      )
      .addOption(
        new Option('--oracle-time-ms <n>', `how long the differential run starts new sequences (default: ${ORACLE_DEFAULTS.timeMs})`)
          .env(env('ORACLE_TIME_MS'))
          .argParser(integerOption(1)),
      )
      .addOption(
        new Option(
          '--thorough',
          `a nightly budget: the model and differential runs start sequences for ${THOROUGH.modelTimeMs / 60_000} minutes each; explicit --model-* and --oracle-* options win (env: DOCPROC_THOROUGH=true|false)`,
        ),
      )
      .addOption(
        new Option('--ca-file <path>', "PEM file of the CA that signed the target's certificate (NODE_EXTRA_CA_CERTS is honoured too)").env(
          env('CA_FILE'),
        ),
      )
      .addOption(
        new Option(
          '--insecure',
          'accept any TLS certificate (a self-signed staging one), with a warning; prefer --ca-file (env: DOCPROC_INSECURE=true|false)',
        ).default(false),
      )
      .addOption(
        new Option(
          '--header <name-value>',
          "'Name: value' a gateway in front needs on every request, repeatable, never printed (env: DOCPROC_HEADERS, one per line)",
        ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
      )
      .addOption(
        new Option(
          '--max-wait-s <n>',
          'how long one request may keep getting 429/503 (or a gateway 502/504) before the target is unavailable (exit 2)',
        )
          .env(env('MAX_WAIT_S'))
          .argParser(integerOption(0))
          .default(RUN_DEFAULTS.maxWaitS),
      )
      .addOption(
        new Option(
          '--max-unanswered <n>',
          'requests in a row (as they end) with no complete answer within --request-timeout-ms after which the target has stopped answering: the run ends early, exit 2, naming the last request answered',
        )
          .env(env('MAX_UNANSWERED'))
          .argParser(integerOption(1))
          .default(RUN_DEFAULTS.maxUnanswered),
      )
      .addOption(
        new Option('--max-run-s <n>', 'the run stops after this long and reports what it has')
          .env(env('MAX_RUN_S'))
          .argParser(integerOption(1))
          .default(RUN_DEFAULTS.maxRunS),
      )
      .addOption(
        new Option('--rate-limit <n|auto>', 'requests per second across the run, or auto: slow down on 429s')
          .env(env('RATE_LIMIT'))
          .argParser(rateLimitOption),
      )
      .addOption(
        new Option('--max-body-bytes <n>', 'the most bytes of one response body read (default: the per-file limit, 8 to 64 MiB)')
          .env(env('MAX_BODY_BYTES'))
          .argParser(integerOption(1024)),
      )
      .addOption(
        new Option(
          '--min-coverage <percent>',
          'fail the run (exit 1) when it reached less than this share of the input partitions and document states (0-100)',
        )
          .env(env('MIN_COVERAGE'))
          .argParser(percentOption),
      )
      .addOption(
        new Option(
          '--clock-skew-ms <n>',
          "how far the target's clock may be from this machine's when its timestamps are compared with the time the suite saw each answer",
        )
          .env(env('CLOCK_SKEW_MS'))
          .argParser(integerOption(0))
          .default(RUN_DEFAULTS.clockSkewMs),
      )
      // Commander exits 1 on bad usage; CI scripts must tell "the server is broken" (1) from "the call was wrong" (2).
      .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
      .action(async (options: ConformanceOptions) => {
        try {
          options.strict ||= envFlag('DOCPROC_STRICT');
          options.insecure ||= envFlag('DOCPROC_INSECURE');
          options.thorough ||= envFlag('DOCPROC_THOROUGH');
          process.exitCode = await runConformance(options);
        } catch (error) {
          if (!(error instanceof UsageError)) throw error;
          const shown = [command.parent?.name(), command.name()].filter(Boolean).join(' ');
          process.stderr.write(`${shown}: ${error.message}\n`);
          process.exitCode = EXIT.usage;
        }
        // A target that keeps a connection open must never let CI hang once the verdict is in.
        setTimeout(() => process.exit(), 10_000).unref();
      })
  );
}
