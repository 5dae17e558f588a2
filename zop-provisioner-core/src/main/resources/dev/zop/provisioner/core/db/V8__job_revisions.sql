-- Each config a job was given after its first: the revisions applied to what it made. Revision 1 is written with
-- the first revision after it, from the job's config then. A revision's steps are the job's update-phase steps
-- from first_step on; outcome is applying, applied or failed.
CREATE TABLE job_revisions (
  job_id       VARCHAR(64)      NOT NULL REFERENCES provisioning_jobs (id),
  number       INTEGER          NOT NULL,
  config       VARCHAR(1000000) NOT NULL,
  outcome      VARCHAR(16)      NOT NULL,
  first_step   INTEGER          NOT NULL,
  created_by   VARCHAR(200)     NOT NULL,
  created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
  finished_at  TIMESTAMP WITH TIME ZONE,
  CONSTRAINT job_revisions_pk PRIMARY KEY (job_id, number)
);
