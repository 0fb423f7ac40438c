import type { MigrationBuilder } from 'node-pg-migrate';

// Fair turns between tenants for the shared run queue (processing/queue/pg-boss-run-queue.ts): each
// tenant's last run tag, and the tag of the run started last anywhere. A run's tag is its place in line.
export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    CREATE TABLE docproc.run_tags (
      tenant text PRIMARY KEY,
      last_tag bigint NOT NULL
    );
    CREATE TABLE docproc.run_clock (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      started bigint NOT NULL
    );
    INSERT INTO docproc.run_clock (started) VALUES (0);
  `);
}
