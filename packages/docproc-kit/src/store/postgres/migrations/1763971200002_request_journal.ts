import type { MigrationBuilder } from 'node-pg-migrate';

// Each tenant's last answered requests (GET /_mock/requests), shared by the replicas: written in batches,
// pruned to the journal size per tenant after each batch (store/postgres/postgres-journal.ts).
export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    CREATE TABLE docproc.request_journal (
      seq bigserial PRIMARY KEY,
      tenant text NOT NULL,
      started_ms bigint NOT NULL,
      entry jsonb NOT NULL
    );
    CREATE INDEX request_journal_tenant ON docproc.request_journal (tenant, seq DESC);
  `);
}
