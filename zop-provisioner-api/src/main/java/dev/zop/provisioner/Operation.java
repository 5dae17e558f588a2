package dev.zop.provisioner;

/**
 * Every operation of the {@link Provisioner} interface and of the REST service, with the one policy it needs: the
 * embedded engine's views check it ({@link Policies#require(Principal, Operation)}), and the service's routes,
 * which call these operations, declare it for their own check and for the OpenAPI document.
 */
public enum Operation {
  ACCOUNTS_CREATE("space:create"),
  ACCOUNTS_GET("space:view"),
  ACCOUNTS_LIST("space:view"),
  PROVIDERS_LIST("space:view"),
  ACCOUNTS_LIST_CLUSTERS("space:view"),
  ACCOUNTS_REGISTER_CLUSTER_ACCESS("space:update"),
  ACCOUNTS_REVOKE_CLUSTER_ACCESS("space:update"),

  SPACES_CREATE("space:create"),
  SPACES_GET("space:view"),
  SPACES_LIST("space:view"),
  SPACES_SET_STATUS("space:update"),
  /** Minting a kubeconfig hands out access to the space's cluster. */
  SPACES_KUBECONFIG("space:update"),
  SPACES_DISCOVER("space:view"),
  SPACES_DELETE("space:delete"),
  NAMESPACES_LIST("deployment:view"),
  NAMESPACES_CREATE("deployment:create"),

  JOBS_PLAN("provisioning:view"),
  JOBS_SUBMIT("provisioning:create"),
  /** Installing a catalog component: a {@code component} job. */
  COMPONENTS_INSTALL("service:create"),
  JOBS_GET("provisioning:view"),
  JOBS_LIST("provisioning:view"),
  JOBS_UPDATE("provisioning:update"),
  JOBS_DELETE("provisioning:delete"),
  JOBS_RETRY("provisioning:update"),
  JOBS_PLAN_REVISION("provisioning:view"),
  JOBS_REVISE("provisioning:update"),
  JOBS_REVISIONS("provisioning:view"),
  /** A drift check reads the cloud, keeps its report and may notify: more than a view. */
  JOBS_CHECK_DRIFT("provisioning:update"),
  JOBS_DRIFT("provisioning:view"),
  JOBS_PLAN_RECONCILE("provisioning:view"),
  JOBS_RECONCILE("provisioning:update"),
  JOBS_PLAN_IMPORT("provisioning:view"),
  JOBS_IMPORT("provisioning:create"),
  JOBS_AWAIT("provisioning:view"),
  JOBS_WATCH("provisioning:view"),
  JOBS_EVENTS("provisioning:view"),

  CATALOG_LIST("service:view"),
  /** Reading a secret the engine generated (a database user's password) by its reference. */
  SECRETS_REVEAL("provisioning:create"),

  DATABASES_CREATE("provisioning:create"),
  DATABASES_LIST("provisioning:view"),
  DATABASES_GET("provisioning:view"),
  DATABASES_DELETE("provisioning:delete"),
  CONNECTIONS_CREATE("provisioning:create"),
  CONNECTIONS_LIST("provisioning:view"),
  CONNECTIONS_GET("provisioning:view"),
  CONNECTIONS_DELETE("provisioning:delete"),

  REMEDIATIONS_START("provisioning:create"),
  REMEDIATIONS_GET("provisioning:view"),
  REMEDIATIONS_LIST("provisioning:view"),
  REMEDIATIONS_APPROVE("provisioning:update"),
  REMEDIATIONS_REJECT("provisioning:update"),
  REMEDIATIONS_CANCEL("provisioning:update"),
  REMEDIATIONS_AWAIT("provisioning:view"),
  REMEDIATIONS_AUDIT("provisioning:view"),
  RECOMMENDATIONS_PUT("provisioning:create"),
  RECOMMENDATIONS_LIST("provisioning:view"),
  TEMPLATES_LIST("provisioning:view"),

  GUARDRAILS_CREATE(Policies.GUARDRAIL_MANAGE),
  GUARDRAILS_UPDATE(Policies.GUARDRAIL_MANAGE),
  GUARDRAILS_DELETE(Policies.GUARDRAIL_MANAGE),
  GUARDRAILS_GET("provisioning:view"),
  GUARDRAILS_LIST("provisioning:view"),
  /** Approving or rejecting a job a guardrail holds; the guardrail's approver grant is checked on the job itself. */
  GUARDRAILS_DECIDE("provisioning:view"),
  GUARDRAILS_TRY(Policies.GUARDRAIL_MANAGE),
  GUARDRAILS_DECISIONS("provisioning:view"),
  GUARDRAILS_EXEMPT(Policies.GUARDRAIL_EXEMPT),
  GUARDRAILS_REVOKE_EXEMPTION(Policies.GUARDRAIL_EXEMPT),
  GUARDRAILS_LIST_EXEMPTIONS("provisioning:view"),

  /** The service's audit log of the organisation's calls. */
  AUDIT_LOG_LIST("provisioning:view");

  private final String policy;

  Operation(String policy) {
    this.policy = policy;
  }

  /** The policy a caller needs for this operation, e.g. {@code provisioning:create}. */
  public String policy() {
    return policy;
  }
}
