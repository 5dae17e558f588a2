/**
 * The provider kit: what every cloud provider shares, so a new provider is its SDK calls and nothing else.
 *
 * <ul>
 *   <li>{@link dev.zop.provisioner.kit.ProviderStep}: a step from a name, its declared permissions and a body. The
 *       permissions are what {@code plan} shows; the body's {@link dev.zop.provisioner.kit.CloudCalls} refuse a
 *       permission the step did not declare, so the plan cannot drift from the calls. A step whose intent is known
 *       before it runs declares it ({@code intending}) and its record then rides with the step's start.</li>
 *   <li>{@link dev.zop.provisioner.kit.CloudCalls}: the operation-tagged call wrapper, with find-or-null for
 *       "not found" and delete-if-exists.</li>
 *   <li>{@link dev.zop.provisioner.kit.StatusPoll}: a wait on the cloud, returned as {@code StepResult.waitFor} with
 *       backoff, never a sleeping thread.</li>
 *   <li>{@link dev.zop.provisioner.kit.PriceTable}: a dated list-price table shipped with the provider.</li>
 *   <li>{@link dev.zop.provisioner.kit.FailureCodes} and {@link dev.zop.provisioner.kit.HttpStatusClassifier}:
 *       one vocabulary of failure codes and the HTTP-status half of every provider's classifier.</li>
 *   <li>{@link dev.zop.provisioner.kit.OwnerTags}: the tags that say which job made a resource, and the ownership
 *       check a resumed step makes before it adopts one.</li>
 * </ul>
 */
package dev.zop.provisioner.kit;
