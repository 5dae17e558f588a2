-- A job's latest history entries are held on its row, as lines of JSON appended by the writes that make them, and
-- moved into one job_events row (its events, the last numbered last_number) when 16 are held: a step's transition
-- writes the job's row alone. A job's events are numbered on from its last (last_event), one after another.
ALTER TABLE provisioning_jobs ADD COLUMN held_events VARCHAR(1000000);
ALTER TABLE provisioning_jobs ADD COLUMN held_count INTEGER DEFAULT 0 NOT NULL;
ALTER TABLE provisioning_jobs ADD COLUMN last_event BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE job_events ADD COLUMN events VARCHAR(1000000);
ALTER TABLE job_events ADD COLUMN last_number BIGINT;
ALTER TABLE job_events ALTER COLUMN event_type DROP NOT NULL;
ALTER TABLE job_events ALTER COLUMN status DROP NOT NULL;
-- a row written before holds one event numbered 2 × seq, or two numbered 2 × seq and 2 × seq + 1, as read before
UPDATE job_events SET last_number = 2 * seq + CASE WHEN then_type IS NULL THEN 0 ELSE 1 END;
ALTER TABLE job_events ALTER COLUMN last_number SET NOT NULL;
UPDATE provisioning_jobs SET last_event = COALESCE(
  (SELECT MAX(e.last_number) FROM job_events e WHERE e.job_id = provisioning_jobs.id), 0);
DROP INDEX job_events_job;
CREATE INDEX job_events_job ON job_events (job_id, last_number);
