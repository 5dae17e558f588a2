-- Every submit that carries an idempotency key looks it up first. In provisioning_jobs the key's unique index
-- (org_id, idempotency_key) competes with provisioning_jobs_org_space (org_id, space_id, seq): with statistics
-- older than a burst of submits PostgreSQL rates the two the same, picks the latter and reads every job of the
-- organisation on each lookup. Here the key's index is the table's only one, so a lookup is one index probe
-- whatever the statistics say.
CREATE TABLE job_idempotency_keys (
  org_id           VARCHAR(64)  NOT NULL,
  idempotency_key  VARCHAR(200) NOT NULL,
  job_id           VARCHAR(64)  NOT NULL REFERENCES provisioning_jobs (id),
  request_hash     VARCHAR(64)  NOT NULL,
  CONSTRAINT job_idempotency_keys_pk PRIMARY KEY (org_id, idempotency_key)
);
-- a key recorded without its request's hash (none should exist) then matches no request: a replay is refused
INSERT INTO job_idempotency_keys (org_id, idempotency_key, job_id, request_hash)
  SELECT org_id, idempotency_key, id, COALESCE(request_hash, '') FROM provisioning_jobs
  WHERE idempotency_key IS NOT NULL;
ALTER TABLE provisioning_jobs DROP CONSTRAINT provisioning_jobs_idempotency;
ALTER TABLE provisioning_jobs DROP COLUMN idempotency_key;
ALTER TABLE provisioning_jobs DROP COLUMN request_hash;
