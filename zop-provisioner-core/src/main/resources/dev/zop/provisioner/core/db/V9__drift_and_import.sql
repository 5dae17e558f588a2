-- A reconcile is a revision that re-applies the config it had: its steps put back what drifted.
ALTER TABLE job_revisions ADD COLUMN reconcile BOOLEAN DEFAULT FALSE NOT NULL;

-- The latest drift check of each job (one row per job, replaced by the next check). drifts is the JSON list of
-- what differed; a row whose status is null was claimed by a schedule and not checked yet. next_check_at is when
-- the space's schedule checks the job next (null: due at once, if a schedule covers it); a scheduled check claims
-- the row by moving it forward, so that several engines do not check one job twice.
CREATE TABLE job_drift (
  job_id        VARCHAR(64)      NOT NULL REFERENCES provisioning_jobs (id),
  status        VARCHAR(16),
  drifts        VARCHAR(1000000),
  checked_at    TIMESTAMP WITH TIME ZONE,
  checked_by    VARCHAR(200),
  cloud_calls   INTEGER,
  elapsed_ms    BIGINT,
  next_check_at TIMESTAMP WITH TIME ZONE,
  CONSTRAINT job_drift_pk PRIMARY KEY (job_id)
);
CREATE INDEX job_drift_next_check ON job_drift (next_check_at);
