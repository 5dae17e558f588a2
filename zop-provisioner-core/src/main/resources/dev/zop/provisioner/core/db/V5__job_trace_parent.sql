-- The W3C traceparent of the span that submitted a job: its steps' spans join that trace, on any engine, later.
ALTER TABLE provisioning_jobs ADD COLUMN trace_parent VARCHAR(64);
