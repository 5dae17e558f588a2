-- A row of job_events holds one event or two: the then_ columns, when then_type is set, are a second event of the
-- same job written in the same transaction (a step's success and the next step's start, say), so a step costs
-- one history row rather than two. A row's events are numbered 2 × seq and 2 × seq + 1 (see JobRepository).
ALTER TABLE job_events ADD COLUMN then_type VARCHAR(32);
ALTER TABLE job_events ADD COLUMN then_step_name VARCHAR(200);
ALTER TABLE job_events ADD COLUMN then_status VARCHAR(16);
ALTER TABLE job_events ADD COLUMN then_message VARCHAR(10000);

-- The step a worker started last on the job, its attempt, when it started (by the engine's clock) and the intent it
-- declared (JSON, null when the step's row holds it already): a step's start is written here, in the fence's update
-- of the job's row that its write makes anyway, rather than as a second version of the step's row. A read of the
-- job's steps adds the intent to that step's outputs, and, while the job is running and step_attempt is ahead of
-- the step row's attempts, shows the step running in that attempt since that time. The write that ends the attempt
-- records all of it on the step's row; a run that finds a start held here alone records it there with its first
-- write, before it can start another step.
ALTER TABLE provisioning_jobs ADD COLUMN step_started VARCHAR(36);
ALTER TABLE provisioning_jobs ADD COLUMN step_attempt INTEGER;
ALTER TABLE provisioning_jobs ADD COLUMN step_started_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE provisioning_jobs ADD COLUMN step_intent VARCHAR(100000);
