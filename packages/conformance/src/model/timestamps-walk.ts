import { sleep } from '../transport/polling.js';
import { type Cmd, DocumentCommand, SettleCommand, UploadCommand } from './commands.js';
import type { SequenceContext } from './sequence-context.js';
import type { ServiceModel } from './state.js';

// The sequence the model plays beside the change walk: one document's timestamps read across its whole run.
// `processed_at` names when the run ended ("When the last run finished; null while processing"): read
// while the run goes on, it is null; read once it ended, it is not before the updated_at of the upload or
// retry that started that run. A retry a clock tick after the first run ended is what tells the run's end
// from the upload's instant: the second run cannot end before it was accepted. Nothing finer is judged
// across documents: a service stamps the end, then writes it, so a read in between still shows the run
// going on (the reference server does). Random sequences retry an ended document and read it to its end
// only by chance.

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
 * D1 uploaded and read while (as far as the target's speed lets) its run goes on, then until it ended; a
 * tick; D1 retried, read while its second run goes on, until it ended, and read again. A target that
 * finishes before the first read shows its document ended there: the report's state coverage names what was
 * not reached, and why.
 * @example fc.asyncModelRun(setup, timestampsWalk())
 */
export function timestampsWalk(): Cmd[] {
  return [
    new UploadCommand(0, ['word'], false, null, null),
    new DocumentCommand('get', 0, 0),
    new SettleCommand('all'),
    new ClockTickCommand(),
    new DocumentCommand('retry', 0, 0),
    new DocumentCommand('get', 0, 0),
    new SettleCommand('all'),
    new DocumentCommand('get', 0, 0),
  ];
}
