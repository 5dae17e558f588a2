package dev.zop.provisioner.server;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The product's policies — {@code space}, {@code provisioning}, {@code service}, {@code deployment} ×
 * {@code view|create|update|delete} — and the system roles that hold them. Custom roles hold only what they were
 * granted. {@code remediation:approve} is one more grant, for deciding approval steps without being an admin.
 */
public final class Policies {
  public static final List<String> CATEGORIES = List.of("space", "provisioning", "service", "deployment");
  public static final List<String> VERBS = List.of("view", "create", "update", "delete");
  public static final String REMEDIATION_APPROVE = "remediation:approve";

  public static final String ADMIN = "admin";
  public static final String OPERATOR = "operator";
  public static final String VIEWER = "viewer";

  /** Every policy a route can require, in a stable order. */
  public static final List<String> ALL = CATEGORIES.stream()
      .flatMap(c -> VERBS.stream().map(v -> c + ":" + v)).toList();

  private static final Map<String, Set<String>> SYSTEM_ROLES = Map.of(
      ADMIN, with(ALL, REMEDIATION_APPROVE),
      // operators run and change things, and tear down what they provisioned, but do not delete spaces
      OPERATOR, Set.copyOf(ALL.stream().filter(p -> !p.equals("space:delete")).toList()),
      VIEWER, Set.copyOf(ALL.stream().filter(p -> p.endsWith(":view")).toList()));

  private Policies() {}

  public static boolean isSystemRole(String role) {
    return SYSTEM_ROLES.containsKey(role);
  }

  static Set<String> ofSystemRole(String role) {
    return SYSTEM_ROLES.getOrDefault(role, Set.of());
  }

  /** Whether {@code policy} is something a custom role may be granted. */
  public static boolean isGrantable(String policy) {
    return ALL.contains(policy) || REMEDIATION_APPROVE.equals(policy);
  }

  private static Set<String> with(List<String> policies, String extra) {
    Set<String> all = new LinkedHashSet<>(policies);
    all.add(extra);
    return Set.copyOf(all);
  }
}
