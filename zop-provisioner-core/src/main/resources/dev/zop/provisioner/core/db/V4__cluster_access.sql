-- Clusters registered on a cloud account for kubeconfig minting (PUT .../clusters/{region}/{name}/access).
-- A cluster job registers the cluster it creates (registered_by_job) and its teardown removes the row.
CREATE TABLE cluster_access (
  org_id             VARCHAR(64)  NOT NULL,
  account_id         VARCHAR(64)  NOT NULL REFERENCES cloud_accounts (id),
  region             VARCHAR(64)  NOT NULL,
  cluster_name       VARCHAR(200) NOT NULL,
  registered_by      VARCHAR(200) NOT NULL,
  registered_by_job  VARCHAR(64),
  registered_at      TIMESTAMP WITH TIME ZONE NOT NULL,
  PRIMARY KEY (account_id, region, cluster_name)
);
CREATE INDEX cluster_access_job ON cluster_access (registered_by_job);
