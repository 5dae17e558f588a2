package dev.zop.provisioner.core.internal.spaces;

import dev.zop.provisioner.FieldError;
import java.util.List;
import java.util.Map;

/**
 * A space's drift schedule: {@value #KEY} in its config, the minutes between two checks of each of its succeeded
 * jobs (5 to 10,080, a week). Without it, the space's jobs are checked only on request.
 */
public final class DriftSchedule {
  public static final String KEY = "driftCheckMinutes";

  private DriftSchedule() {}

  /** The minutes a config's schedule names, or null when it names none (or an invalid value). */
  public static Integer minutes(Map<String, String> config) {
    String value = config.get(KEY);
    if (value == null) {
      return null;
    }
    try {
      int minutes = Integer.parseInt(value.trim());
      return minutes >= 5 && minutes <= 10_080 ? minutes : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The error of a schedule that is not whole minutes from 5 to 10,080; none when it is, or there is none. */
  public static List<FieldError> validate(Map<String, String> config) {
    if (!config.containsKey(KEY) || minutes(config) != null) {
      return List.of();
    }
    return List.of(FieldError.of("config." + KEY, "invalid_value",
        "minutes between two drift checks of each job: a whole number from 5 to 10080"));
  }
}
