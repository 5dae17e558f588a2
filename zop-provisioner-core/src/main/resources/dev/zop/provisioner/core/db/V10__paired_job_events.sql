-- A row of job_events holds one event or two: the then_ columns, when then_type is set, are a second event of the
-- same job written in the same transaction (a step's success and the next step's start, say), so a step costs
-- one history row rather than two. A row's events are numbered 2 × seq and 2 × seq + 1 (see JobRepository).
ALTER TABLE job_events ADD COLUMN then_type VARCHAR(32);
ALTER TABLE job_events ADD COLUMN then_step_name VARCHAR(200);
ALTER TABLE job_events ADD COLUMN then_status VARCHAR(16);
ALTER TABLE job_events ADD COLUMN then_message VARCHAR(10000);
