import { EXIT, UsageError } from '@docproc-kit/conformance';
import { Command, Option } from 'commander';
import { readAcceptedBreaks } from '../contract-diff/accepted-breaks.js';
import { type BehaviourReport, behaviourBreaks, behaviourReport } from '../contract-diff/behaviour.js';
import { type ContractSource, ContractSourceError, readContractSource } from '../contract-diff/contract-source.js';
import { contractDiffReport } from '../contract-diff/diff-report.js';
import { formatDiffText } from '../contract-diff/format-text.js';
import { integerOption } from './number-options.js';
import { exitOnUsageError, USAGE_EXIT_CODE } from './usage-error.js';

interface DiffOptions {
  format: 'text' | 'json';
  acceptedBreaks?: string;
  behaviour: boolean;
  baseUrl?: string;
  apiKey?: string;
  secondApiKey?: string;
  profile: 'contract' | 'full';
  only?: string;
  maxRunS?: number;
}

async function runDiff(baseArg: string, headArg: string, options: DiffOptions): Promise<number> {
  if (options.behaviour && (!options.baseUrl || !options.apiKey))
    throw new ContractSourceError('--behaviour needs --base-url (a deployment of HEAD) and --api-key');
  if (!options.behaviour && (options.baseUrl || options.apiKey))
    throw new ContractSourceError('--base-url and --api-key go with --behaviour');
  const opened: ContractSource[] = [];
  try {
    const base = await readContractSource(baseArg);
    opened.push(base);
    const head = await readContractSource(headArg);
    opened.push(head);
    const file = options.acceptedBreaks;
    const accepted = file ? { file, entries: readAcceptedBreaks(file) } : undefined;
    let report: ReturnType<typeof contractDiffReport>;
    try {
      report = contractDiffReport(base, head, accepted);
    } catch (error) {
      // The engine throws for a document it cannot compare (a $ref pointing nowhere): the contract is at fault.
      throw new ContractSourceError(`cannot compare ${baseArg} with ${headArg}: ${(error as Error).message}`);
    }
    let behaviour: BehaviourReport | undefined;
    if (options.behaviour)
      behaviour = await behaviourReport(
        base,
        head,
        {
          baseUrl: options.baseUrl!,
          apiKey: options.apiKey!,
          profile: options.profile,
          ...(options.secondApiKey ? { secondApiKey: options.secondApiKey } : {}),
          ...(options.only ? { only: options.only.split(',').map((a) => a.trim()) } : {}),
          ...(options.maxRunS ? { maxRunS: options.maxRunS } : {}),
        },
        process.stderr,
      );
    const broken = report.counts.breaking + (behaviour ? behaviourBreaks(behaviour) : 0);
    const code = broken > 0 ? EXIT.failed : EXIT.passed;
    process.stdout.write(
      options.format === 'json'
        ? `${JSON.stringify({ ...report, ...(behaviour ? { behaviour } : {}), exit: code }, null, 2)}\n`
        : formatDiffText(report, behaviour),
    );
    return code;
  } finally {
    for (const source of opened) source.close();
  }
}

/**
 * `docproc contract`: the contract's own commands; `diff BASE HEAD` classifies every difference for
 * clients of BASE (exit 1 when one breaks them), and with `--behaviour` runs BASE's promises against a
 * deployment of HEAD.
 * @example await contractCommand().parseAsync(['diff', 'git:main', 'openapi.yaml'], { from: 'user' });
 */
export function contractCommand(): Command {
  const diff = new Command('diff')
    .description(
      'Classify every difference from BASE to HEAD (each a file, or git:REF for the bundled contract at a git ref) for clients written to BASE: exit 0 when nothing breaks, 1 when something does, 2 on bad usage or an unreadable or invalid contract.',
    )
    .argument('<base>', 'the contract clients were written to: a file, or git:REF')
    .argument('<head>', 'the new contract: a file, or git:REF')
    .addOption(new Option('--format <format>', 'text for people, json for machines').choices(['text', 'json']).default('text'))
    .addOption(
      new Option(
        '--accepted-breaks <file>',
        'the release gate: breaking changes with an entry (rule, location, why, date) in this Markdown table, or all of them when HEAD moves the base path to a new major version, do not fail',
      ),
    )
    .addOption(
      new Option(
        '--behaviour',
        "also run BASE's conformance against a deployment of HEAD and compile BASE's client types against HEAD's",
      ).default(false),
    )
    .addOption(new Option('--base-url <url>', 'with --behaviour: the deployment of HEAD (its base_url, without /api/v1)'))
    .addOption(new Option('--api-key <key>', 'with --behaviour: an API key of that deployment'))
    .addOption(new Option('--second-api-key <key>', "with --behaviour: another tenant's key (the tenancy checks)"))
    .addOption(new Option('--profile <profile>', 'with --behaviour: the suite profile').choices(['contract', 'full']).default('full'))
    .addOption(new Option('--only <areas>', 'with --behaviour: run only these comma-separated areas of the suite'))
    .addOption(new Option('--max-run-s <n>', "with --behaviour: the suite run's deadline").argParser(integerOption(1)))
    .exitOverride(exitOnUsageError)
    .action(async (base: string, head: string, options: DiffOptions) => {
      try {
        process.exitCode = await runDiff(base, head, options);
      } catch (error) {
        if (!(error instanceof ContractSourceError || error instanceof UsageError)) throw error;
        process.stderr.write(`docproc contract diff: ${error.message}\n`);
        process.exitCode = USAGE_EXIT_CODE;
      }
    });
  return new Command('contract')
    .description("The contract's own tools: diff two versions of it.")
    .addCommand(diff)
    .exitOverride(exitOnUsageError);
}
