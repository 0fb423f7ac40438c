import type { Exchange, SentRequest } from '../definitions/exchange.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import type { Judge } from '../judging/judge.js';
import type { Http, SendOptions } from '../transport/http.js';
import type { FileKind, SequenceFiles } from './file-kinds.js';
import type { Answer, ModelJudge, PartSpec, Tenant } from './state.js';

/** One request of a step, as sent, for the reproducer script. */
export interface LoggedCall {
  tenant: Tenant;
  request: SentRequest;
  /** The document the path names, so the script writes `$D3` instead of this run's id. */
  names?: { id: number; alias: string };
  /** The aliases an accepted upload's documents get, in part order (the script captures them). */
  creates?: string[];
  /** Polls until the document is no longer processing (rendered as a loop). */
  poll?: boolean;
}

/** One command of a sequence as it ran: what was sent, what the model expected, what the target said. */
export interface Step {
  title: string;
  calls: LoggedCall[];
  model: string;
  target?: string;
  failed?: boolean;
}

/** What every sequence of a model run shares: the target, the judge, and what the deployment accepts. */
export interface RunEnv {
  http: Http<Judge>;
  judge: Judge;
  /** Whether a second tenant's key was given. */
  secondTenant: boolean;
  defaultLimit: number;
  maxLimit: number;
  maxFiles: number;
  /** The kinds of file whose bytes the deployment takes. */
  kinds: FileKind[];
  timeoutMs: number;
  /** The contract's Idempotency-Key header name. */
  idempotencyHeader: string;
  /**
   * How long after the suite last saw a document change it waits, beyond one tick of the target's clock,
   * before changing it again, so the change gets a later `updated_at` than the one seen.
   */
  changeGapMs: number;
  /** The first delay of the polling backoff while waiting for a run to end. */
  firstPollMs: number;
}

/** The real side of one sequence: its names, the requests it made and the steps it logged. */
export class SequenceContext {
  readonly log: Step[] = [];
  /** Every upload the sequence made, accepted or not, so a later one can repeat it exactly. */
  readonly uploads: Array<{ parts: PartSpec[]; key: string | null }> = [];
  requests = 0;

  constructor(
    readonly env: RunEnv,
    /** In every filename the sequence uploads, and in no other (nor any other sequence's). */
    readonly token: string,
    readonly files: SequenceFiles,
  ) {}

  tenant(index: number): Tenant {
    return index === 1 && this.env.secondTenant ? 'secondary' : 'primary';
  }

  /** Starts a step in the log. */
  step(title: string, model: string): Step {
    const step: Step = { title, calls: [], model };
    this.log.push(step);
    return step;
  }

  /** Sends one request of `step` with `tenant`'s key, logging it first (so a failure still shows it). */
  async send(step: Step, tenant: Tenant, options: SendOptions, extra: Omit<LoggedCall, 'tenant' | 'request'> = {}): Promise<Exchange> {
    const prepared = this.env.http.prepare({ ...options, key: tenant });
    step.calls.push({ tenant, request: prepared.request, ...extra });
    this.requests++;
    try {
      return await this.env.http.dispatch(prepared);
    } catch (error) {
      if (error instanceof ConformanceFailure) {
        step.failed = true;
        step.target = error.record.received;
      }
      throw error;
    }
  }

  /** The model's judge for the answer `exchange` got: a failure shows that request and marks `step` failed. */
  judge(step: Step, exchange: Exchange): ModelJudge {
    const marked = (received: string, expected: string) => {
      step.failed = true;
      step.target = received;
      step.model = expected;
    };
    return {
      check: (check, observation) => {
        try {
          this.env.judge.check(check, observation, exchange);
        } catch (error) {
          if (error instanceof ConformanceFailure) marked(error.record.received, error.record.expected);
          throw error;
        }
      },
      verify: (check, holds, details) =>
        this.env.judge.verify(check, holds, () => {
          const d = details();
          marked(d.received, d.expected);
          return { received: d.received, expected: d.expected, exchange, ...(d.note ? { note: d.note } : {}) };
        }),
    };
  }
}

/** The parts of an exchange the model judges. */
export function answerOf(exchange: Exchange): Answer {
  const received = exchange.receivedAt ?? Date.now();
  return {
    status: exchange.status,
    body: exchange.json,
    header: (name) => exchange.headers.get(name),
    // The duration is the answered attempt's (a 429 resent is another attempt).
    window: { sent: received - exchange.durationMs, received },
  };
}
