package dev.zop.provisioner.spi;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanWarning;
import dev.zop.provisioner.spec.ResourceSpec;
import java.util.List;

/**
 * Turns a spec of one kind into steps. The lists must be deterministic for a given input: the engine rebuilds
 * them on every resume and matches them by position to the steps it persisted.
 */
public interface ResourceDriver<S extends ResourceSpec> {

  Class<S> specType();

  /**
   * The spec with what the user left out filled in (an image, a network), asking the cloud if need be. The engine
   * calls it for {@code plan} and {@code submit} before {@link #validate}; the job keeps the filled spec and the
   * plan lists each value filled and why. The default fills nothing.
   */
  default Defaulted<S> withDefaults(S spec) {
    return Defaulted.as(spec);
  }

  /** Provider-specific problems with a spec the spec's own validation accepts (instance types, versions). */
  List<FieldError> validate(S spec);

  /**
   * What a person should know before the job runs that does not stop it (a component whose project is retired,
   * say): shown in the plan and written as {@code warning} events when the job is submitted. The default has none.
   */
  default List<PlanWarning> warnings(S spec) {
    return List.of();
  }

  /**
   * Every entry of the job's outputs this driver's steps record or read ({@link OutputKey}), declared once as
   * constants and used by create, teardown and plan. The provider TCK fails when a step records or reads an entry
   * not declared here, so a teardown cannot look for something under a name no create step writes. The default
   * is {@link OutputKeys#undeclared()}, which the TCK refuses.
   */
  default OutputKeys outputKeys() {
    return OutputKeys.undeclared();
  }

  /** The ordered steps that create the resource. */
  List<Step> create(S spec);

  /**
   * The ordered steps that remove what {@code recorded} says exists, most dependent first. Runs after success,
   * after a failure part-way, or after a crash: steps must tolerate resources that never were created.
   */
  List<Step> teardown(S spec, Outputs recorded);

  /**
   * How to change what a job made from {@code current} to {@code revised} (both with defaults filled and valid),
   * given what its steps have recorded: the steps, and which fields they change in place or by a replacement; a
   * change the cloud cannot make, or that would lose data, is refused with its field named. The steps must be
   * deterministic for the same inputs, as {@link #create}'s: a resumed revision rebuilds them. Like every step,
   * each observes the cloud first and converges, so running it again after a crash changes nothing twice. What
   * they record joins the job's outputs (teardown reads it). The default changes nothing ({@link Revision#none}).
   */
  default Revision revise(S current, S revised, Outputs recorded) {
    return Revision.none();
  }

  /**
   * Reads back what the job made, given what its steps recorded, and compares it with {@code spec}: each attribute
   * the spec controls that differs, and each resource gone ({@link dev.zop.provisioner.Drift#missing}). The read
   * only reads. Null (the default) when the driver cannot check its kind.
   */
  default CloudRead<List<dev.zop.provisioner.Drift>> observe(S spec, Outputs recorded) {
    return null;
  }

  /**
   * How to make what the job made match {@code spec} again after a drift check found it changed out of band: the
   * steps, each observing the cloud and putting back what differs (leaving what is right alone), and which drifted
   * fields ({@link dev.zop.provisioner.Drift#field}) they put back in place; a drift they cannot put back (a newer
   * Kubernetes minor, say) is refused with its field named. The steps must be deterministic for the same inputs, as
   * {@link #create}'s. {@link Revision#none} (the default) when the driver cannot.
   */
  default Revision reconcile(S spec, Outputs recorded) {
    return Revision.none();
  }

  /**
   * Finds an existing resource of this kind by the cloud's id for it, for an import: the config it has, the job
   * outputs its create steps would have recorded, and its owner by the cloud's tags. The read only reads; null when
   * nothing has that id. Returns null from the method itself (the default) when the driver cannot import.
   */
  default CloudRead<Adoption<S>> findExisting(String externalId) {
    return null;
  }

  /**
   * The steps that take over what {@link #findExisting} found for a new job whose config is {@code found}: each
   * finds the resource again, refuses it when another job owns it, tags it as this job's where the cloud allows, and records
   * the outputs create would have. Teardown, revisions and drift checks then treat it as if the job had made it.
   */
  default List<Step> adopt(S found, String externalId) {
    return List.of();
  }

  /** The monthly cost of the spec as priced components; an unknown price is a line saying so, never a guess. */
  List<CostComponent> price(S spec, String region);

  /** The date of the price table {@link #price} reads (ISO date), shown in the plan; null when there is none. */
  default String pricesAsOf() {
    return null;
  }
}
