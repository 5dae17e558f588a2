package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ValidationException;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every query parameter checked against the route's contract before the route runs, one way for all: a parameter
 * the route does not take, a value that is not of the declared type, outside its limits or not one of its values, is
 * a 400 naming the parameter and what it expects — the same words the OpenAPI document uses.
 */
final class QueryParameters {
  private QueryParameters() {}

  static void check(Endpoint endpoint, Context ctx) {
    if (endpoint.contract() == null) {
      return;
    }
    List<FieldError> errors = new ArrayList<>();
    ctx.queryParamMap().forEach((name, values) -> {
      Endpoint.QueryParameter declared = endpoint.contract().query().stream().filter(q -> q.name().equals(name))
          .findFirst().orElse(null);
      if (declared == null) {
        String takes = endpoint.contract().query().stream().map(Endpoint.QueryParameter::name)
            .collect(Collectors.joining(", "));
        errors.add(FieldError.of(name, "unknown_parameter", "unknown query parameter " + name + "; "
            + (takes.isEmpty() ? "this route takes none" : "this route takes " + takes)));
        return;
      }
      boolean array = "array".equals(declared.schema().get("type"));
      if (!array && values.size() > 1) {
        errors.add(FieldError.of(name, "invalid_value", name + " is given more than once"));
        return;
      }
      for (String value : values) {
        String problem = array ? arrayProblem(declared, value) : problem(declared.schema(), value);
        if (problem != null) {
          errors.add(FieldError.of(name, problem.startsWith("out of range") ? "out_of_range" : "invalid_value",
              name + ": " + problem.replaceFirst("^out of range: ", "")));
          return;
        }
      }
    });
    ValidationException.throwIfAny(errors);
  }

  @SuppressWarnings("unchecked")
  private static String arrayProblem(Endpoint.QueryParameter declared, String value) {
    Map<String, Object> items = (Map<String, Object>) declared.schema().get("items");
    for (String one : value.split(",", -1)) {
      if (one.isEmpty() && value.isEmpty()) {
        continue; // status= means no filter
      }
      String problem = problem(items, one);
      if (problem != null) {
        return problem.replace("expected ", "expected each comma-separated value ");
      }
    }
    return null;
  }

  /** What is wrong with {@code value} for {@code schema}, in the document's words, or null when nothing is. */
  private static String problem(Map<String, Object> schema, String value) {
    Object type = schema.get("type");
    if (schema.get("enum") instanceof List<?> allowed && !allowed.contains(value)) {
      return "expected one of " + allowed.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
    if ("integer".equals(type)) {
      Number minimum = (Number) schema.get("minimum");
      Number maximum = (Number) schema.get("maximum");
      String range = minimum != null && maximum != null ? " from " + minimum + " to " + maximum
          : minimum != null ? " of at least " + minimum : "";
      long number;
      try {
        number = Long.parseLong(value);
      } catch (NumberFormatException e) {
        return "expected an integer" + range;
      }
      if (minimum != null && number < minimum.longValue() || maximum != null && number > maximum.longValue()) {
        return "out of range: expected an integer" + range;
      }
    }
    if ("string".equals(type) && value.length() > 500) {
      return "expected a string of at most 500 characters";
    }
    return null;
  }
}
