package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A namespace on a space's cluster. {@code managedByZopnight} marks the ones created through this API, which
 * carry the {@code zop.dev/managed-by=zopnight} label; {@code createdAt} is given for those.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@NullMarked
public record Namespace(String name, boolean managedByZopnight, @Nullable Instant createdAt) {
  public Namespace {
    Objects.requireNonNull(name, "name");
  }
}
