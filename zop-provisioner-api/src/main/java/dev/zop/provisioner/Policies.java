package dev.zop.provisioner;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The product's policies — {@code space}, {@code provisioning}, {@code service}, {@code deployment} ×
 * {@code view|create|update|delete} — and the system roles that hold them. Custom roles hold only what they were
 * granted. {@code remediation:approve} is one more grant, for deciding approval steps without being an admin.
 *
 * <p>One check, {@link #allows}, guards both the embedded engine's views and the REST service: a principal holds
 * the policies of its system roles, and any policy named among its roles as a grant (the service resolves a
 * custom role to the grants it holds before the engine sees the caller).
 */
public final class Policies {
  public static final List<String> CATEGORIES = List.of("space", "provisioning", "service", "deployment");
  public static final List<String> VERBS = List.of("view", "create", "update", "delete");
  public static final String REMEDIATION_APPROVE = "remediation:approve";
  /** Making, changing and deleting the organisation's guardrails. */
  public static final String GUARDRAIL_MANAGE = "guardrail:manage";
  /**
   * Deciding a job a guardrail holds for approval; a guardrail may name a narrower grant under it,
   * {@code guardrail:approve:<name>}, which a custom role is granted by that name.
   */
  public static final String GUARDRAIL_APPROVE = "guardrail:approve";
  /** Granting and revoking exemptions from guardrails. */
  public static final String GUARDRAIL_EXEMPT = "guardrail:exempt";

  public static final String ADMIN = "admin";
  public static final String OPERATOR = "operator";
  public static final String VIEWER = "viewer";

  /** Every policy a route can require, in a stable order. */
  public static final List<String> ALL = CATEGORIES.stream()
      .flatMap(c -> VERBS.stream().map(v -> c + ":" + v)).toList();

  private static final Map<String, Set<String>> SYSTEM_ROLES = Map.of(
      ADMIN, with(ALL, REMEDIATION_APPROVE, GUARDRAIL_MANAGE, GUARDRAIL_APPROVE, GUARDRAIL_EXEMPT),
      // operators run and change things, and tear down what they provisioned, but do not delete spaces
      OPERATOR, Set.copyOf(ALL.stream().filter(p -> !p.equals("space:delete")).toList()),
      VIEWER, Set.copyOf(ALL.stream().filter(p -> p.endsWith(":view")).toList()));

  private Policies() {}

  public static boolean isSystemRole(String role) {
    return SYSTEM_ROLES.containsKey(role);
  }

  public static Set<String> ofSystemRole(String role) {
    return SYSTEM_ROLES.getOrDefault(role, Set.of());
  }

  /** Every policy {@code principal} holds: those of its system roles and those it was granted by name. */
  public static Set<String> of(Principal principal) {
    Set<String> held = new LinkedHashSet<>();
    for (String role : principal.roles()) {
      held.addAll(ofSystemRole(role));
      if (isGrantable(role)) {
        held.add(role);
      }
    }
    return held;
  }

  /** Whether {@code principal} holds {@code policy}. */
  public static boolean allows(Principal principal, String policy) {
    for (String role : principal.roles()) {
      if (role.equals(policy) || ofSystemRole(role).contains(policy)) {
        return true;
      }
    }
    return false;
  }

  /** Refuses, with a 403-shaped error naming the policy and the roles, unless {@code principal} holds it. */
  /** Throws {@link ForbiddenException} unless {@code principal} holds the policy {@code operation} needs. */
  public static void require(Principal principal, Operation operation) {
    require(principal, operation.policy());
  }

  public static void require(Principal principal, String policy) {
    if (!allows(principal, policy)) {
      throw new ForbiddenException("forbidden", "this call needs the " + policy + " policy, which "
          + principal.actor() + "'s roles " + principal.roles() + " do not grant");
    }
  }

  /** Whether {@code policy} is something a custom role may be granted. */
  public static boolean isGrantable(String policy) {
    return ALL.contains(policy) || REMEDIATION_APPROVE.equals(policy) || GUARDRAIL_MANAGE.equals(policy)
        || GUARDRAIL_EXEMPT.equals(policy) || isApproverGrant(policy);
  }

  /** Whether {@code grant} may decide guardrail approvals: {@code guardrail:approve} or a narrower one under it. */
  public static boolean isApproverGrant(String grant) {
    return GUARDRAIL_APPROVE.equals(grant) || grant.startsWith(GUARDRAIL_APPROVE + ":")
        && grant.length() > GUARDRAIL_APPROVE.length() + 1 && grant.length() <= 100;
  }

  private static Set<String> with(List<String> policies, String... extra) {
    Set<String> all = new LinkedHashSet<>(policies);
    all.addAll(List.of(extra));
    return Set.copyOf(all);
  }
}
