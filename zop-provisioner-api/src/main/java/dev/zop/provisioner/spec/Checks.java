package dev.zop.provisioner.spec;

import dev.zop.provisioner.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Collects field errors for one spec; every check records and carries on, so all errors are reported at once. */
final class Checks {
  /** Lower-case DNS label: what every cloud accepts as a resource name. */
  private static final Pattern RESOURCE_NAME = Pattern.compile("[a-z]([a-z0-9-]{0,61}[a-z0-9])?");
  private static final Pattern CLOUD_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,254}");

  private final List<FieldError> errors = new ArrayList<>();

  List<FieldError> errors() {
    return List.copyOf(errors);
  }

  void add(String field, String code, String message) {
    errors.add(FieldError.of(field, code, message));
  }

  boolean required(String field, Object value) {
    if (value == null || (value instanceof String s && s.isBlank())) {
      errors.add(FieldError.required(field));
      return false;
    }
    return true;
  }

  void resourceName(String field, String value, boolean isRequired) {
    if (value == null && !isRequired) {
      return;
    }
    if (required(field, value) && !RESOURCE_NAME.matcher(value).matches()) {
      add(field, "invalid_name",
          "must be 1-63 lower-case letters, digits or '-', start with a letter and not end with '-'");
    }
  }

  void matches(String field, String value, Pattern pattern, String description) {
    if (value != null && !pattern.matcher(value).matches()) {
      add(field, "invalid_format", "must be " + description);
    }
  }

  void cloudId(String field, String value) {
    matches(field, value, CLOUD_ID, "a cloud resource id (letters, digits, '.', '_', ':', '/', '-')");
  }

  void cloudIds(String field, List<String> values) {
    if (values == null) {
      return;
    }
    for (int i = 0; i < values.size(); i++) {
      String id = values.get(i);
      if (required(field + "[" + i + "]", id)) {
        cloudId(field + "[" + i + "]", id);
      }
    }
  }

  void range(String field, Integer value, int min, int max) {
    if (value != null && (value < min || value > max)) {
      add(field, "out_of_range", "must be between " + min + " and " + max);
    }
  }

  /** min/max of a scaling group: both given, 0 &le; min &le; max, max &ge; 1. */
  void scaling(String prefix, Integer min, Integer max, int limit) {
    boolean haveMin = required(prefix + "min", min);
    boolean haveMax = required(prefix + "max", max);
    if (haveMin) {
      range(prefix + "min", min, 0, limit);
    }
    if (haveMax) {
      range(prefix + "max", max, 1, limit);
    }
    if (haveMin && haveMax && min > max) {
      add(prefix + "max", "less_than_min", "must be at least min (" + min + ")");
    }
  }

  void ports(String field, List<Integer> ports) {
    if (ports == null) {
      return;
    }
    for (int i = 0; i < ports.size(); i++) {
      Integer port = ports.get(i);
      if (required(field + "[" + i + "]", port)) {
        range(field + "[" + i + "]", port, 1, 65535);
      }
    }
    if (ports.stream().distinct().count() != ports.size()) {
      add(field, "duplicate", "ports must be distinct");
    }
  }

  /** Validates an IPv4 CIDR block and returns {address, prefix} or null when invalid. */
  long[] cidr(String field, String value) {
    if (value == null) {
      return null;
    }
    long[] parsed = Cidr.parse(value);
    if (parsed == null) {
      add(field, "invalid_cidr", "must be an IPv4 CIDR block such as 10.0.0.0/16");
    }
    return parsed;
  }

  void merge(String prefix, List<FieldError> nested) {
    nested.forEach(e -> errors.add(e.under(prefix)));
  }
}
