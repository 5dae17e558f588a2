package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A namespace on a space's cluster. {@code managedByZopnight} marks the ones created through this API, which
 * carry the {@code zop.dev/managed-by=zopnight} label; {@code createdAt} is given for those.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Namespace(String name, boolean managedByZopnight, Instant createdAt) {}
