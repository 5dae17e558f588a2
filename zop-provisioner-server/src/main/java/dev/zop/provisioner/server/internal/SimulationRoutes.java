package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.spi.FaultInjection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A test double's faults, for a service that runs on one ({@code zop serve --demo}'s simulated cloud): set and lifted
 * over the API, so the console's failure screens can be seen without touching a real cloud. Admins only; a service
 * given no {@link FaultInjection} has none of these routes.
 */
final class SimulationRoutes {
  /** The kinds of fault, and the failure category each provokes. */
  static final List<String> KINDS = List.of("access_denied", "quota_exceeded", "throttled", "unsupported");
  /** Throttling refuses this many calls unless told otherwise: more than any retry policy tries. */
  static final int DEFAULT_THROTTLED_CALLS = 100;
  private static final Pattern TARGET = Pattern.compile("[A-Za-z0-9:._/-]{1,200}");

  /**
   * {@code POST /simulation/faults}.
   *
   * @param kind   {@code access_denied}, {@code throttled} or {@code unsupported} (of an operation, such as
   *               {@code kubernetes:CreateNodegroup}), or {@code quota_exceeded} (of a resource type, such as
   *               {@code kubernetes-cluster})
   * @param target the operation or resource type
   * @param times  for {@code throttled}: how many calls are refused (default 100)
   */
  record FaultRequest(String kind, String target, Integer times) {}

  /** The faults in force, and what the simulated cloud has seen, to choose targets from. */
  record Faults(List<FaultInjection.Fault> faults, List<String> operationsCalled, List<String> resourceTypes,
      List<String> kinds) {}

  private SimulationRoutes() {}

  static void register(Routes r, FaultInjection cloud) {
    r.route("GET", "/simulation/faults", null, "The simulated cloud's faults in force (zop serve --demo); admins only",
        200, call -> {
          Routes.admin(call);
          return faults(cloud);
        });
    r.route("POST", "/simulation/faults", null, "Inject a fault into the simulated cloud (zop serve --demo); admins"
        + " only", 200, call -> {
          Routes.admin(call);
          FaultRequest body = call.body(FaultRequest.class);
          List<FieldError> errors = new ArrayList<>();
          if (body.kind() == null || !KINDS.contains(body.kind())) {
            errors.add(FieldError.of("kind", "invalid_value", "kind must be one of " + KINDS));
          }
          if (body.target() == null || !TARGET.matcher(body.target()).matches()) {
            errors.add(FieldError.of("target", "invalid_value",
                "target must be an operation or resource type of 1..200 letters, digits and :._/-"));
          }
          if (body.times() != null && (body.times() < 1 || body.times() > 10_000)) {
            errors.add(FieldError.of("times", "out_of_range", "times must be 1..10000"));
          }
          ValidationException.throwIfAny(errors);
          switch (body.kind()) {
            case "access_denied" -> cloud.deny(body.target());
            case "quota_exceeded" -> cloud.quotaExceeded(body.target());
            case "throttled" -> cloud.throttleNext(body.target(),
                body.times() == null ? DEFAULT_THROTTLED_CALLS : body.times());
            default -> cloud.unsupported(body.target());
          }
          return faults(cloud);
        });
    r.route("DELETE", "/simulation/faults", null, "Lift every fault of the simulated cloud; admins only", 204,
        call -> {
          Routes.admin(call);
          cloud.clearFaults();
          return null;
        });
  }

  private static Faults faults(FaultInjection cloud) {
    return new Faults(cloud.faults(), cloud.operationsCalled(), cloud.resourceTypes(), KINDS);
  }
}
