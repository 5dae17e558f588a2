package dev.zop.provisioner.gcp;

import dev.zop.provisioner.kit.OwnerTags;
import dev.zop.provisioner.spi.StepContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who made a resource: labels {@code zop-job} and {@code zop-part} where the resource takes labels, and the same
 * pairs in its description where it does not (VPC networks, subnetworks, firewall rules). A resumed step finds
 * what its job made by them and adopts it; anything else under the name is refused as {@code name_in_use}.
 * Parts use only what label values allow: lower-case letters, digits, {@code -} and {@code _}.
 */
final class GcpOwner {
  static final String JOB = "zop-job";
  static final String PART = "zop-part";
  static final OwnerTags TAGS = new OwnerTags(JOB, PART);

  private GcpOwner() {}

  static Map<String, String> labels(StepContext ctx, String part) {
    return TAGS.of(ctx, part);
  }

  /** The owner pairs written into a description, e.g. {@code zop-job=job_abc zop-part=network}. */
  static String description(StepContext ctx, String part) {
    StringBuilder out = new StringBuilder();
    labels(ctx, part).forEach((k, v) -> out.append(out.isEmpty() ? "" : " ").append(k).append('=').append(v));
    return out.toString();
  }

  /** The owner pairs a description holds; empty for a description we did not write. */
  static Map<String, String> fromDescription(String description) {
    Map<String, String> pairs = new LinkedHashMap<>();
    if (description != null) {
      for (String word : description.trim().split("\\s+")) {
        int eq = word.indexOf('=');
        if (eq > 0 && (word.startsWith(JOB + "=") || word.startsWith(PART + "="))) {
          pairs.put(word.substring(0, eq), word.substring(eq + 1));
        }
      }
    }
    return pairs;
  }
}
