package dev.zop.provisioner.wire;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** The bodies of REST requests, spelled as the product documents spell them. */
public final class Requests {
  private Requests() {}

  /** {@code POST /provisioning-jobs} and {@code POST /provisioning-jobs/plan}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SubmitJob(
      @JsonProperty("spaceID") @JsonAlias("spaceId") String spaceId,
      String kind,
      JsonNode config,
      String name,
      Map<String, String> tags) {}

  /**
   * {@code POST /provisioning-jobs/{id}/revisions} and {@code .../revisions/plan}: the job's whole config as it
   * should be, and the job's kind, which says which spec the config is (a revision cannot change it).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ReviseJob(String kind, JsonNode config) {}

  /**
   * {@code POST /provisioning-jobs/import} and {@code .../import/plan}: a job's body as a submit's, and the cloud's id
   * of the resource to take over.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ImportJob(
      @JsonProperty("spaceID") @JsonAlias("spaceId") String spaceId,
      String kind,
      JsonNode config,
      @JsonProperty("externalID") @JsonAlias("externalId") String externalId) {}

  /** {@code POST /provisioning-jobs/install-component}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record InstallComponent(
      @JsonProperty("spaceID") @JsonAlias("spaceId") String spaceId,
      @JsonProperty("componentID") @JsonAlias("componentId") String componentId,
      String namespace,
      Map<String, Object> values,
      String chartVersion) {}

  /** {@code POST /space-discovery/{spaceID}/namespaces}. */
  public record CreateNamespace(String name) {}

  /** {@code PATCH /spaces/{id}/status}. */
  public record SpaceStatusChange(String status) {}

  /** {@code POST /provisioning-jobs/{jobID}/databases}. */
  public record CreateDatabase(String name, String owner) {}

  /** {@code POST /remediation-jobs}. */
  public record StartRemediation(
      @JsonProperty("recommendationID") @JsonAlias("recommendationId") String recommendationId,
      String subjectType,
      @JsonProperty("subjectID") @JsonAlias("subjectId") String subjectId) {}

  /**
   * {@code PATCH /guardrails/{id}}: the fields to change, the others kept; the next version is made from them.
   * {@code rule} is a rule object with its {@code type}, as a guardrail's.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record GuardrailPatch(
      String name,
      dev.zop.provisioner.GuardrailLevel level,
      dev.zop.provisioner.GuardrailRule rule,
      dev.zop.provisioner.GuardrailScope scope,
      String approverGrant,
      String description,
      Boolean enabled) {

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isEmpty() {
      return name == null && level == null && rule == null && scope == null && approverGrant == null
          && description == null && enabled == null;
    }

    public dev.zop.provisioner.GuardrailRequest asRequest() {
      return new dev.zop.provisioner.GuardrailRequest(name, level, rule, scope, approverGrant, description, enabled);
    }
  }

  /** Approve, reject and cancel carry an optional reason. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Decision(String reason) {}

  /**
   * The body of every error response, under {@code "error"}.
   *
   * @param observed where a refusal compared a config with what the cloud has (an import), that: {@code {"kind":
   *     ..., "config": {...}}}, a body a request can take as it is; else absent
   * @param verdicts where guardrails refused the change ({@code guardrail_denied}), every guardrail's verdict on it
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ErrorBody(
      String code,
      String message,
      String category,
      String fixHint,
      String consoleUrl,
      java.util.List<dev.zop.provisioner.FieldError> fields,
      String requestId,
      com.fasterxml.jackson.databind.JsonNode observed,
      java.util.List<dev.zop.provisioner.GuardrailVerdict> verdicts) {

    public ErrorBody(String code, String message, String category, String fixHint, String consoleUrl,
        java.util.List<dev.zop.provisioner.FieldError> fields, String requestId) {
      this(code, message, category, fixHint, consoleUrl, fields, requestId, null, null);
    }

    public ErrorBody(String code, String message, String category, String fixHint, String consoleUrl,
        java.util.List<dev.zop.provisioner.FieldError> fields, String requestId,
        com.fasterxml.jackson.databind.JsonNode observed) {
      this(code, message, category, fixHint, consoleUrl, fields, requestId, observed, null);
    }
  }
}
