import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { EXIT, UsageError } from '../definitions/config.js';
import { renderHtmlDiff } from '../report/html-diff.js';
import type { ConformanceReport } from '../report/report.js';
import { diffReports, formatDiff } from '../report/report-diff.js';

function readReport(file: string): ConformanceReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let report: ConformanceReport;
  try {
    report = JSON.parse(text) as ConformanceReport;
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(report?.checks) || typeof report.runId !== 'string')
    throw new UsageError(`${file} is not a conformance report (written by --report): it has no checks or run id`);
  return report;
}

/**
 * `docproc conformance diff A.json B.json`: which checks newly fail, which were fixed, and which coverage
 * cells changed from run A to run B. Exits 0 whatever changed (it reports; the runs judged), 2 on bad input.
 * @example diffCommand().parseAsync(['a.json', 'b.json', '--html', 'diff.html'], { from: 'user' });
 */
export function diffCommand(parentHtml: () => string | undefined = () => undefined): Command {
  const command: Command = new Command('diff');
  return command
    .description(
      "Compare two runs' JSON reports (--report): checks newly failing, fixed, and coverage cells changed. Exit 0; 2 on bad input.",
    )
    .argument('<before>', "the earlier run's JSON report")
    .argument('<after>', "the later run's JSON report")
    .addOption(new Option('--html <file>', 'also write the comparison as a self-contained HTML page'))
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
    .action((before: string, after: string, options: { html?: string }) => {
      try {
        const diff = diffReports(readReport(before), readReport(after));
        process.stdout.write(formatDiff(diff));
        // `--html` after the file names is parsed by `docproc conformance` itself, which has the option too.
        const html = options.html ?? parentHtml();
        if (html) {
          const file = resolve(html);
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, renderHtmlDiff(diff));
          process.stdout.write(`   Page     ${file}\n`);
        }
        process.exitCode = EXIT.passed;
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        process.stderr.write(
          `${[command.parent?.parent?.name(), command.parent?.name(), 'diff'].filter(Boolean).join(' ')}: ${error.message}\n`,
        );
        process.exitCode = EXIT.usage;
      }
    });
}
