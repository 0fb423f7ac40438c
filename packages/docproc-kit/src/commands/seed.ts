import { readFile, rename, writeFile } from 'node:fs/promises';
import { loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { Command, Option } from 'commander';
import { importHar } from '../proxy/har-import.js';
import { createSeedRecording, describeRecording } from '../recording/seed-recording.js';
import { exitOnUsageError, USAGE_EXIT_CODE } from './usage-error.js';

/** Options of `docproc seed from-har`. */
export interface FromHarOptions {
  out?: string;
  redactContent: boolean;
  redactFilenames: boolean;
  redactSeed?: string;
}

function fromHarCommand(): Command {
  return new Command('from-har')
    .description(
      'Record the documents a HAR\'s valid answers show (uploads, lists, reads, retries; a browser devtools\' "Save all as HAR") into a seed file for serve --seed-file, POST /_mock/seed and the MSW handlers.',
    )
    .argument('<file>', 'the HAR file')
    .exitOverride(exitOnUsageError)
    .addOption(new Option('-o, --out <file>', 'write the seed file here (default: standard output)'))
    .addOption(
      new Option('--redact-content', "replace each document's text by generated words of the same lengths and scripts").default(false),
    )
    .addOption(new Option('--redact-filenames', 'the same for filenames, extensions kept').default(false))
    .addOption(
      new Option('--redact-seed <text>', 'the key of the generated words: the same key, the same words (default: a random one)').env(
        'DOCPROC_REDACT_SEED',
      ),
    )
    .action(async (file: string, options: FromHarOptions) => {
      let har: unknown;
      try {
        har = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        process.stderr.write(`docproc seed from-har: cannot read ${file}: ${(error as Error).message}\n`);
        process.exit(USAGE_EXIT_CODE);
      }
      const recording = createSeedRecording();
      let imported: ReturnType<typeof importHar>;
      try {
        imported = importHar(har, await loadBundledContract(), recording);
      } catch (error) {
        process.stderr.write(`docproc seed from-har: ${file}: ${(error as Error).message}\n`);
        process.exit(USAGE_EXIT_CODE);
      }
      const text = `${JSON.stringify(recording.contents(options), null, 1)}\n`;
      if (options.out) {
        const temporary = `${options.out}.${process.pid}.tmp`;
        await writeFile(temporary, text);
        await rename(temporary, options.out);
      } else process.stdout.write(text);
      process.stderr.write(
        `docproc seed from-har: ${imported.judged} of ${imported.entries} entries were the API's; ${describeRecording(recording.summary())}${options.out ? `; written to ${options.out}` : ''}\n`,
      );
    });
}

/** `docproc seed`: seed files made from recorded traffic. */
export function seedCommand(): Command {
  return new Command('seed').description('Seed files from recorded traffic.').exitOverride(exitOnUsageError).addCommand(fromHarCommand());
}
