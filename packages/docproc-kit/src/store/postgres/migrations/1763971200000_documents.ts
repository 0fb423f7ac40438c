import type { MigrationBuilder } from 'node-pg-migrate';

// The store's first schema: documents with their folded filename and text (searched through trigram
// indexes), uploaded bytes, per-tenant counts for list totals, Idempotency-Keys and their claims, the
// tenant salt, and the mock controls' per-tenant settings and faults. Applied by migrate.ts, under an
// advisory lock, so replicas starting at once apply it once.
export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;

    CREATE TABLE docproc.meta (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      tenant_salt text NOT NULL
    );

    CREATE SEQUENCE docproc.document_ids AS bigint;

    CREATE TABLE docproc.documents (
      id bigint PRIMARY KEY,
      tenant text NOT NULL,
      filename text NOT NULL,
      content_type text NOT NULL,
      size_bytes bigint NOT NULL,
      status text NOT NULL,
      attempts integer NOT NULL,
      error jsonb,
      -- ISO 8601 in UTC as the service writes them: byte order is time order.
      created_at text COLLATE "C" NOT NULL,
      updated_at text NOT NULL,
      processed_at text,
      next_outcome jsonb,
      content text,
      folded_name text NOT NULL,
      folded_content text
    );
    CREATE INDEX documents_list ON docproc.documents (tenant, created_at DESC, id DESC);
    CREATE INDEX documents_by_status ON docproc.documents (tenant, status, created_at DESC, id DESC);
    CREATE INDEX documents_processing ON docproc.documents (id) WHERE status = 'processing';
    -- Without a pending list (fastupdate): a search costs the same right after many uploads as after a vacuum.
    CREATE INDEX documents_name_trgm ON docproc.documents USING gin (folded_name public.gin_trgm_ops) WITH (fastupdate = off);
    CREATE INDEX documents_content_trgm ON docproc.documents USING gin (folded_content public.gin_trgm_ops) WITH (fastupdate = off);

    -- Uploaded bytes, as bytea (see postgres-store.ts for why not large objects); PDFs and images are
    -- compressed already, so PostgreSQL does not try again (EXTERNAL: out of line, uncompressed).
    CREATE TABLE docproc.files (
      id bigint PRIMARY KEY REFERENCES docproc.documents ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
      bytes bytea NOT NULL
    );
    ALTER TABLE docproc.files ALTER COLUMN bytes SET STORAGE EXTERNAL;

    -- How many documents each tenant has in each status, so a list's total costs one lookup. One row per
    -- tenant, updated by row triggers (which run at the end of their statement, after its rows are
    -- locked): every writer takes document rows first and the counts row last, so writers never deadlock.
    CREATE TABLE docproc.tenant_counts (
      tenant text PRIMARY KEY,
      processing bigint NOT NULL DEFAULT 0,
      completed bigint NOT NULL DEFAULT 0,
      failed bigint NOT NULL DEFAULT 0
    );
    CREATE FUNCTION docproc.count_documents() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      added text := CASE WHEN TG_OP <> 'DELETE' THEN NEW.status END;
      removed text := CASE WHEN TG_OP <> 'INSERT' THEN OLD.status END;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO docproc.tenant_counts (tenant) VALUES (NEW.tenant) ON CONFLICT (tenant) DO NOTHING;
      END IF;
      UPDATE docproc.tenant_counts SET
        processing = processing + (added IS NOT DISTINCT FROM 'processing')::int - (removed IS NOT DISTINCT FROM 'processing')::int,
        completed = completed + (added IS NOT DISTINCT FROM 'completed')::int - (removed IS NOT DISTINCT FROM 'completed')::int,
        failed = failed + (added IS NOT DISTINCT FROM 'failed')::int - (removed IS NOT DISTINCT FROM 'failed')::int
      WHERE tenant = CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant ELSE NEW.tenant END;
      RETURN NULL;
    END $$;
    CREATE TRIGGER documents_counted AFTER INSERT OR DELETE ON docproc.documents
      FOR EACH ROW EXECUTE FUNCTION docproc.count_documents();
    CREATE TRIGGER documents_recounted AFTER UPDATE OF status ON docproc.documents
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION docproc.count_documents();

    -- Uploads remembered under their Idempotency-Key, and the keys held by uploads in flight (a lease, so
    -- a replica that dies holding one frees it when the lease runs out).
    CREATE TABLE docproc.upload_keys (
      tenant text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      expires_at text COLLATE "C" NOT NULL,
      document_ids bigint[] NOT NULL,
      PRIMARY KEY (tenant, key)
    );
    CREATE INDEX upload_keys_expiry ON docproc.upload_keys (expires_at);
    CREATE TABLE docproc.key_claims (
      tenant text NOT NULL,
      key text NOT NULL,
      holder text NOT NULL,
      lease_until timestamptz NOT NULL,
      PRIMARY KEY (tenant, key)
    );

    -- The mock controls' changes per tenant (settings, faults), shared by every replica.
    CREATE TABLE docproc.tenant_controls (
      kind text NOT NULL,
      tenant text NOT NULL,
      value jsonb NOT NULL,
      PRIMARY KEY (kind, tenant)
    );
  `);
}
