import { readFileSync } from 'node:fs';
import { EXIT, proxyFacts, reportFiles, writeHtmlReport, writeProxyReport } from '@docproc-kit/conformance/observe';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { banner } from '../lifecycle/banner.js';
import { onShutdown } from '../lifecycle/shutdown.js';
import type { Judging } from '../proxy/judging.js';
import { createWorkerJudging } from '../proxy/judging-thread-handle.js';
import { createProxyServer } from '../proxy/proxy-server.js';
import { createRecordingWriter, type FlushResult } from '../proxy/recorder.js';
import { describeRecording } from '../recording/seed-recording.js';
import { integerOption, portOption } from './number-options.js';
import { exitOnUsageError } from './usage-error.js';

/** Options of `docproc proxy`. */
export interface ProxyOptions {
  target: string;
  port: number;
  host: string;
  report?: string;
  html?: string;
  failOnViolation: boolean;
  strict: boolean;
  spec: string;
  judgeBodyBytes: number;
  insecure: boolean;
  caFile?: string;
  record?: string;
  redactContent: boolean;
  redactFilenames: boolean;
  redactSeed?: string;
}

/** The exit line of a recording: what it holds, and what it left out and why. */
export const recordingLine = (result: FlushResult) => `docproc proxy: recorded into ${result.file}: ${describeRecording(result)}`;

function targetOption(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected an http:// or https:// URL, not ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError(`expected an http:// or https:// URL, not ${JSON.stringify(value)}.`);
  if (url.search || url.hash) throw new InvalidArgumentError('the target is a base URL: no query or fragment.');
  return value;
}

/** `docproc proxy`: a reverse proxy that reports every contract violation of the traffic passing through it. */
export function proxyCommand(): Command {
  return new Command('proxy')
    .description(
      'Forward every request to --target byte for byte, and judge each exchange against the contract with the conformance checks: one log line per violation, GET /_proxy/violations and /_proxy/report, and --report files at exit.',
    )
    .exitOverride(exitOnUsageError)
    .addOption(
      new Option('--target <url>', 'base URL of the service to forward to (http or https)')
        .env('DOCPROC_PROXY_TARGET')
        .argParser(targetOption)
        .makeOptionMandatory(),
    )
    .addOption(new Option('-p, --port <port>', 'port to listen on (0 picks a free one)').env('PORT').default(4012).argParser(portOption))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(
      new Option(
        '--report <file>',
        'at exit, write the JSON report here, JUnit XML beside it (.xml) and a HAR of the violating exchanges (.har)',
      ).env('DOCPROC_PROXY_REPORT'),
    )
    .addOption(new Option('--html <file>', 'at exit, write the report as one self-contained HTML page here').env('DOCPROC_PROXY_HTML'))
    .addOption(new Option('--fail-on-violation', 'exit 1 at shutdown when any violation was seen').default(false))
    .addOption(
      new Option('--strict', 'undocumented properties and answers made by an intermediary are violations, not warnings').default(false),
    )
    .addOption(
      new Option('--spec <path>', 'contract to judge against (a file or URL)').default(bundledSpecPath, 'the bundled openapi/openapi.yaml'),
    )
    .addOption(
      new Option(
        '--judge-body-bytes <n>',
        'the most bytes of one response body the judge keeps; a longer one is judged on its status and headers',
      )
        .default(2 * 1024 * 1024)
        .argParser(integerOption(1024)),
    )
    .addOption(new Option('--insecure', "do not verify the target's TLS certificate").default(false))
    .addOption(new Option('--ca-file <file>', "trust this CA (PEM) for the target's certificate, besides Node's own"))
    .addOption(
      new Option(
        '--record <file>',
        'record every document valid answers show into a seed file (for serve --seed-file, POST /_mock/seed, the MSW handlers), written at exit and on POST /_proxy/record/flush',
      ).env('DOCPROC_PROXY_RECORD'),
    )
    .addOption(
      new Option(
        '--redact-content',
        "with --record: replace each document's text by generated words of the same lengths and scripts",
      ).default(false),
    )
    .addOption(new Option('--redact-filenames', 'with --record: the same for filenames, extensions kept').default(false))
    .addOption(
      new Option(
        '--redact-seed <text>',
        'the key of the generated words: the same key, the same words (default: a random one per run)',
      ).env('DOCPROC_REDACT_SEED'),
    )
    .action(async (options: ProxyOptions) => {
      if (!options.record && (options.redactContent || options.redactFilenames || options.redactSeed)) {
        process.stderr.write('docproc proxy: --redact-content, --redact-filenames and --redact-seed go with --record <file>\n');
        process.exit(EXIT.usage);
      }
      const settings = {
        target: options.target,
        spec: options.spec,
        strict: options.strict,
        bodyCap: options.judgeBodyBytes,
        keep: 1_000,
        record: options.record !== undefined,
      };
      let judging: Judging;
      try {
        // Judged on a thread of its own (it loads the contract there): forwarding never waits for a verdict.
        judging = await createWorkerJudging(settings, (line) => process.stdout.write(`${line}\n`));
      } catch (error) {
        process.stderr.write(`docproc proxy: cannot load the contract ${options.spec}: ${(error as Error).message}\n`);
        process.exit(EXIT.usage);
      }
      let ca: string | undefined;
      try {
        ca = options.caFile ? readFileSync(options.caFile, 'utf8') : undefined;
      } catch (error) {
        process.stderr.write(`docproc proxy: cannot read --ca-file: ${(error as Error).message}\n`);
        process.exit(EXIT.usage);
      }
      // One key for the whole run, so every flush writes the same words for the same originals.
      const redactSeed = options.redactSeed ?? crypto.randomUUID();
      const flush = options.record
        ? createRecordingWriter(
            options.record,
            async (writeOptions) => {
              await judging.settled();
              return (await judging.recording(writeOptions))!;
            },
            { redactContent: options.redactContent, redactFilenames: options.redactFilenames, redactSeed },
          )
        : undefined;
      const proxy = createProxyServer({
        target: options.target,
        judging,
        ...(flush ? { flushRecording: flush } : {}),
        bodyCap: options.judgeBodyBytes,
        verifyTls: !options.insecure,
        ...(ca ? { ca } : {}),
      });
      let url: string;
      try {
        url = await proxy.listen(options.port, options.host);
      } catch (error) {
        process.stderr.write(`docproc proxy: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}\n`);
        process.exit(EXIT.usage);
      }
      const files = options.report ? reportFiles(options.report) : undefined;
      process.stdout.write(
        banner(`docproc proxy listening on ${url}`, [
          ['forwarding to', options.target],
          ['contract', options.spec],
          ['violations', `${url}/_proxy/violations (newest first), summary ${url}/_proxy/report`],
          files && ['at exit', `${files.json}, ${files.junit}, ${files.har}`],
          options.html !== undefined && ['at exit', `${options.html} (the report as a page; ${url}/_proxy/report in a browser meanwhile)`],
          options.record !== undefined && [
            'recording',
            `${options.record} at exit and on POST ${url}/_proxy/record/flush${options.redactContent ? ', texts redacted' : ''}${options.redactFilenames ? ', filenames redacted' : ''}`,
          ],
        ]),
      );
      let exitCode: number = EXIT.passed;
      onShutdown({ name: 'docproc proxy', exitCode: () => exitCode }, async () => {
        await proxy.close(2_000);
        try {
          const summary = await judging.summary();
          if (flush) process.stdout.write(`${recordingLine(await flush())}\n`);
          if (files || options.html) {
            const { report, har } = await judging.report();
            if (files) writeProxyReport(files, report, har);
            if (options.html) writeHtmlReport(report, options.html, { facts: proxyFacts(summary) });
          }
          await judging.close();
          process.stdout.write(
            `docproc proxy: ${summary.exchanges.total} exchanges, ${summary.violations.total} violations (${summary.violations.service} by the service, ${summary.violations.client} by clients)${files ? `; report in ${files.json}` : ''}\n`,
          );
          exitCode = options.failOnViolation && summary.violations.total > 0 ? EXIT.failed : EXIT.passed;
        } catch (error) {
          // Without the verdicts nothing can be said to have passed.
          process.stderr.write(`docproc proxy: could not finish the report: ${(error as Error).message}\n`);
          exitCode = EXIT.failed;
        }
      });
    });
}
