package dev.zop.provisioner;

import java.util.Map;

/**
 * Lightweight job fields that can change without re-running anything. A null field is left as it is.
 */
public record JobPatch(String name, Map<String, String> tags) {
  public JobPatch {
    tags = tags == null ? null : Tags.copyOf(tags);
  }

  public static JobPatch name(String name) {
    return new JobPatch(name, null);
  }

  public static JobPatch tags(Map<String, String> tags) {
    return new JobPatch(null, tags);
  }

  public JobPatch withName(String newName) {
    return new JobPatch(newName, tags);
  }

  public JobPatch withTags(Map<String, String> newTags) {
    return new JobPatch(name, newTags);
  }
}
