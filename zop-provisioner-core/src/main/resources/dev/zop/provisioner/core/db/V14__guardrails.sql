-- awaiting_approval, a job guardrails hold for a person, is 17 characters
ALTER TABLE provisioning_jobs ALTER COLUMN status SET DATA TYPE VARCHAR(24);
ALTER TABLE job_events ALTER COLUMN status SET DATA TYPE VARCHAR(24);
ALTER TABLE job_events ALTER COLUMN then_status SET DATA TYPE VARCHAR(24);

-- Each version of each guardrail: a change writes the next version and leaves the old ones as they were. rule and
-- scope are JSON; deleted marks the version that deleted the guardrail.
CREATE TABLE guardrails (
  id             VARCHAR(64)    NOT NULL,
  version        INTEGER        NOT NULL,
  org_id         VARCHAR(200)   NOT NULL,
  name           VARCHAR(200)   NOT NULL,
  level          VARCHAR(16)    NOT NULL,
  rule           VARCHAR(100000) NOT NULL,
  scope          VARCHAR(100000) NOT NULL,
  approver_grant VARCHAR(200)   NOT NULL,
  description    VARCHAR(2000),
  enabled        BOOLEAN        NOT NULL,
  deleted        BOOLEAN        NOT NULL,
  created_by     VARCHAR(200)   NOT NULL,
  created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT guardrails_pk PRIMARY KEY (id, version)
);
CREATE INDEX guardrails_org ON guardrails (org_id, name);

-- The name a live guardrail holds in its organisation: one row each, taken on create and freed on delete, so that
-- two engines creating the same name at once make one guardrail.
CREATE TABLE guardrail_names (
  org_id       VARCHAR(200) NOT NULL,
  name         VARCHAR(200) NOT NULL,
  guardrail_id VARCHAR(64)  NOT NULL,
  CONSTRAINT guardrail_names_pk PRIMARY KEY (org_id, name)
);

-- Every decision guardrails made on a change: the plan's hash, the verdicts of the versions that answered, and what
-- came of it (allowed, warned, approval_required, denied). job_id is null for a plan or a refused change.
CREATE TABLE guardrail_decisions (
  id          VARCHAR(64)      NOT NULL,
  org_id      VARCHAR(200)     NOT NULL,
  job_id      VARCHAR(64),
  space_id    VARCHAR(64)      NOT NULL,
  action      VARCHAR(16)      NOT NULL,
  plan_hash   VARCHAR(64)      NOT NULL,
  outcome     VARCHAR(24)      NOT NULL,
  verdicts    VARCHAR(1000000) NOT NULL,
  plan        VARCHAR(1000000) NOT NULL,
  actor       VARCHAR(200)     NOT NULL,
  decided_at  TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT guardrail_decisions_pk PRIMARY KEY (id)
);
CREATE INDEX guardrail_decisions_org ON guardrail_decisions (org_id, decided_at);
CREATE INDEX guardrail_decisions_job ON guardrail_decisions (job_id);

-- Leave for one job (job_id) or one space (space_id) to break one guardrail until expires_at; a revoked one is kept.
CREATE TABLE guardrail_exemptions (
  id           VARCHAR(64)    NOT NULL,
  org_id       VARCHAR(200)   NOT NULL,
  guardrail_id VARCHAR(64)    NOT NULL,
  job_id       VARCHAR(64),
  space_id     VARCHAR(64),
  reason       VARCHAR(2000)  NOT NULL,
  expires_at   TIMESTAMP WITH TIME ZONE NOT NULL,
  granted_by   VARCHAR(200)   NOT NULL,
  granted_at   TIMESTAMP WITH TIME ZONE NOT NULL,
  revoked_by   VARCHAR(200),
  revoked_at   TIMESTAMP WITH TIME ZONE,
  CONSTRAINT guardrail_exemptions_pk PRIMARY KEY (id)
);
CREATE INDEX guardrail_exemptions_org ON guardrail_exemptions (org_id, granted_at);
