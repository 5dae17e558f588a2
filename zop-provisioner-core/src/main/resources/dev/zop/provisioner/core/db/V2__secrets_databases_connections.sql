-- Secret references only: which organisation was issued a reference, and which store holds its value.
CREATE TABLE secret_refs (
  ref               VARCHAR(1000)  NOT NULL PRIMARY KEY,
  org_id            VARCHAR(64)    NOT NULL,
  store             VARCHAR(64)    NOT NULL,
  cloud_account_id  VARCHAR(64)    NOT NULL,
  region            VARCHAR(64),
  created_at        TIMESTAMP WITH TIME ZONE NOT NULL
);

-- Logical databases on a datastore job's server. lease_until guards a create or delete in progress: when it
-- has passed, the engine that started it is gone and another finishes (delete) or undoes (create) the work.
CREATE TABLE job_databases (
  id           VARCHAR(64)    NOT NULL PRIMARY KEY,
  org_id       VARCHAR(64)    NOT NULL,
  job_id       VARCHAR(64)    NOT NULL REFERENCES provisioning_jobs (id),
  name         VARCHAR(64)    NOT NULL,
  owner_name   VARCHAR(64)    NOT NULL,
  status       VARCHAR(16)    NOT NULL,
  secret_ref   VARCHAR(1000),
  lease_until  TIMESTAMP WITH TIME ZONE,
  created_by   VARCHAR(200)   NOT NULL,
  created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT job_databases_name UNIQUE (job_id, name),
  CONSTRAINT job_databases_owner UNIQUE (job_id, owner_name)
);

CREATE TABLE job_connections (
  id             VARCHAR(64)    NOT NULL PRIMARY KEY,
  org_id         VARCHAR(64)    NOT NULL,
  job_id         VARCHAR(64)    NOT NULL REFERENCES provisioning_jobs (id),
  database_id    VARCHAR(64)    REFERENCES job_databases (id),
  username       VARCHAR(64)    NOT NULL,
  database_name  VARCHAR(64),
  secret_ref     VARCHAR(1000)  NOT NULL,
  created_by     VARCHAR(200)   NOT NULL,
  created_at     TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX job_connections_job ON job_connections (job_id, database_id);
