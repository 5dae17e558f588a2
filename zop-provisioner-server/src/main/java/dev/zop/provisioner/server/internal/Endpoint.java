package dev.zop.provisioner.server.internal;

/**
 * One route of the API: the single table the server registers, authorises, audits and documents (OpenAPI) from.
 *
 * @param policy      the policy the caller needs, or null for a route that only needs a valid token
 * @param form        how the route is called: with or without a body, held open, or public
 */
public record Endpoint(String method, String path, String policy, String summary, int successStatus,
    Form form, Action action, Shape request, Shape response, Contract contract) {

  /** How a route is called. */
  public enum Form {
    /** Reads a JSON body. */
    WITH_BODY,
    /** Acts on its path alone: any body other than {@code {}} is refused. */
    WITHOUT_BODY,
    /**
     * A GET held open on purpose (a long poll, an event stream), which so takes no {@link Admission} slot; no
     * body.
     */
    HELD_OPEN,
    /** Served without a token (health, readiness); no body. */
    PUBLIC
  }

  /** Served without a token (health, readiness). */
  public boolean isPublic() {
    return form == Form.PUBLIC;
  }

  /** Reads a JSON body; a route that does not refuses any body other than {@code {}}. */
  public boolean takesBody() {
    return form == Form.WITH_BODY;
  }

  /** Held open on purpose, and so takes no {@link Admission} slot. */
  public boolean heldOpen() {
    return form == Form.HELD_OPEN;
  }

  /**
   * How the route is named and called in the OpenAPI document: the operationId people write ({@code listJobs}),
   * the resource tag it is grouped under, and every query parameter it reads (a route that reads one it does not
   * declare fails: {@link Call#query}).
   */
  public record Contract(String operationId, String tag, java.util.List<QueryParameter> query) {
    public Contract {
      query = java.util.List.copyOf(query);
    }

    public boolean declares(String parameter) {
      return query.stream().anyMatch(q -> q.name().equals(parameter));
    }
  }

  /** One query parameter: its name, JSON Schema (type, limits, enum, default) and what it does. */
  public record QueryParameter(String name, java.util.Map<String, Object> schema, String description) {
    public QueryParameter {
      schema = java.util.Map.copyOf(schema);
    }
  }

  /**
   * A JSON shape the document describes: a type, with its type arguments for a generic one
   * ({@code Page<Job>} is {@code Shape.of(Page.class, Job.class)}).
   */
  public record Shape(Class<?> type, Class<?>... arguments) {
    public static Shape of(Class<?> type, Class<?>... arguments) {
      return new Shape(type, arguments);
    }
  }

  Endpoint documented(Shape body, Shape data, Contract named) {
    return new Endpoint(method, path, policy, summary, successStatus, form, action, body, data, named);
  }

  /** The work of a route: returns what goes under {@code "data"}, or null for an empty 204. */
  @FunctionalInterface
  public interface Action {
    Object run(Call call) throws Exception;
  }

  /**
   * Whether the route changes anything, and so is audited: every method but GET, except a POST that needs no more
   * than a {@code :view} policy (a plan computes and stores nothing).
   */
  public boolean mutating() {
    return mutating(method, policy);
  }

  public static boolean mutating(String method, String policy) {
    return !method.equals("GET") && (policy == null || !policy.endsWith(":view"));
  }

  /** The audit action name, e.g. {@code POST /provisioning-jobs/{id}/retry}. */
  public String auditAction() {
    return method + " " + path;
  }
}
