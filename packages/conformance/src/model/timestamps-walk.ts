import { sleep } from '../transport/polling.js';
import { type Cmd, DocumentCommand, SettleCommand, UploadCommand } from './commands.js';
import type { SequenceContext } from './sequence-context.js';
import type { ServiceModel } from './state.js';

// The sequence the model plays beside the change walk: one document's timestamps read across its whole run.
// `processed_at` names when the run ended ("When the last run finished; null while processing"): read
// while the run goes on, it is null; read once it ended, it is not before any timestamp the target showed
// before a read that still showed the document processing (a second upload's created_at, made a clock
// tick later, is one), and not after the read that showed it ended (judge-clock.ts). Random sequences read
// a document while processing, after another upload, only by chance.

/** Waits one clock tick of the target (as its timestamps show it): what it stamps next names a later instant. */
export class ClockTickCommand implements Cmd {
  check = () => true;

  async run(m: ServiceModel, r: SequenceContext): Promise<void> {
    await sleep(r.env.changeGapMs + m.grain.ms);
  }

  toString(): string {
    return 'tick()';
  }
}

/**
 * D1 uploaded, a tick, D2 uploaded; D1 and D2 read while (as far as the target's speed lets) their runs go
 * on, then until they ended, then D1 read again. A target that finishes before the first read shows its
 * documents ended there: the report's state coverage names what was not reached, and why.
 * @example fc.asyncModelRun(setup, timestampsWalk())
 */
export function timestampsWalk(): Cmd[] {
  return [
    new UploadCommand(0, ['word'], false, null, null),
    new ClockTickCommand(),
    new UploadCommand(0, ['plain'], false, null, null),
    new DocumentCommand('get', 0, 0),
    new DocumentCommand('get', 0, 1),
    new SettleCommand('all'),
    new DocumentCommand('get', 0, 0),
  ];
}
