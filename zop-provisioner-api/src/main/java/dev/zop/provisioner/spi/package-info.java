/**
 * The provider SPI. A cloud provider plugin implements {@link dev.zop.provisioner.spi.CloudProvider} and
 * registers it for {@link java.util.ServiceLoader} (with {@code @AutoService(CloudProvider.class)}).
 *
 * <p>The contract every step keeps: observe before mutating; record the intent (deterministic name or client
 * token) before calling a mutating API; treat "already exists" (when it is ours) as success and "not found" on
 * delete as success; return {@link dev.zop.provisioner.spi.StepResult#waitFor} instead of sleeping.
 */
package dev.zop.provisioner.spi;
