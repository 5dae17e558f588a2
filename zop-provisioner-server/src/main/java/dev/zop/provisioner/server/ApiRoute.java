package dev.zop.provisioner.server;

/**
 * One route the server serves, as a caller or a test sees it.
 *
 * @param policy   the policy a caller needs, or null when any valid token will do (or none, for public routes)
 * @param isPublic served without a token (health, readiness)
 */
public record ApiRoute(String method, String path, String policy, String summary, int successStatus,
    boolean isPublic) {

  /**
   * Whether the route changes anything (and so is audited): every method but GET, except a POST that needs no more
   * than a {@code :view} policy, such as a plan.
   */
  public boolean mutating() {
    return dev.zop.provisioner.server.internal.Endpoint.mutating(method, policy);
  }

  /** {@code METHOD /path}, as the audit log names the route. */
  public String describe() {
    return method + " " + path;
  }
}
