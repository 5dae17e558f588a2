package dev.zop.provisioner.discovery;

import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A size a spec may name, as a provider offers it.
 *
 * @param name         the name a spec gives ({@code m5.large}, {@code db.t3.medium}): the same on every cloud
 * @param providerName what the name becomes on this provider ({@code n2-standard-2} on GCP); the name itself where
 *                     the provider's own sizes carry it
 * @param family       burstable, general, memory or compute
 * @param vcpus        virtual CPUs; 0 where the provider sizes by memory alone (caches)
 * @param memoryGib    memory in GiB
 * @param hourlyPrice  the list price an hour from the provider's dated price table, or null when the table has none
 */
@NullMarked
public record OfferedSize(String name, String providerName, String family, int vcpus, double memoryGib,
    @Nullable BigDecimal hourlyPrice) {

  public OfferedSize {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(providerName, "providerName");
    Objects.requireNonNull(family, "family");
  }
}
