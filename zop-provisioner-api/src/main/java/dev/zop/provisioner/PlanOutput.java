package dev.zop.provisioner;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;

/**
 * One entry of the outputs the job's steps will record, as its provider declares it: what a later step, the
 * teardown, and a change to the job read back. Secrets are recorded only as references ({@code secretRef}).
 *
 * @param key the entry's name; for a family with one entry a part of the spec (a node group, a subnet), its
 *     pattern, with {@code {part}} for the part's name ({@code nodegroup.{part}.name})
 * @param type {@code text}, {@code secretRef}, {@code number} or {@code flag}
 * @param perPart whether {@code key} is a family's pattern
 */
@NullMarked
public record PlanOutput(String key, String type, boolean perPart) {
  public PlanOutput {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
  }
}
