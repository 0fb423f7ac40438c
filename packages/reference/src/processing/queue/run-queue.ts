/** One processing run to perform: which document, and which of its attempts (a later attempt supersedes it). */
export interface RunJob {
  documentId: number;
  tenant: string;
  attempt: number;
}

/**
 * Where processing runs wait for a slot: the port between the processor (what a run does) and whatever
 * hands runs out (in this process, or shared by replicas). Adapters: `local-run-queue.ts` (the default, in
 * memory, tenants served in turn), `pg-boss-run-queue.ts` (in PostgreSQL, shared by replicas). Adding one touches its own file and the service's wiring.
 */
export interface RunQueue {
  /** Queues runs of stored documents; none starts before `delayMs` has passed. */
  enqueue(jobs: RunJob[], delayMs: number): Promise<void>;
  /**
   * Starts handing queued runs to `work`, a bounded number at once, tenants in turn. A run is done when
   * `work` settles; what `work` does with a superseded or vanished document is its own business.
   */
  start(work: (job: RunJob) => Promise<void>): void;
  /** Stops handing out runs (queued and delayed ones are dropped: restart recovery finds them again). */
  stop(): Promise<void>;
}
