package dev.zop.provisioner.core;

import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDecision;
import dev.zop.provisioner.GuardrailId;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.Guardrails;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Operation;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import java.util.List;

/** The embedded engine's guardrails as one principal sees them: each call checks its policy, as the REST route does. */
final class EmbeddedGuardrails implements Guardrails {
  private final EngineAssembly assembly;
  private final Principal principal;

  EmbeddedGuardrails(EngineAssembly assembly, Principal principal) {
    this.assembly = assembly;
    this.principal = principal;
  }

  @Override
  public Guardrail create(GuardrailRequest request) {
    Policies.require(principal, Operation.GUARDRAILS_CREATE);
    return assembly.engine.guardrails().create(principal, request);
  }

  @Override
  public Guardrail get(GuardrailId id) {
    Policies.require(principal, Operation.GUARDRAILS_GET);
    return assembly.engine.guardrails().get(principal, id);
  }

  @Override
  public Guardrail get(GuardrailId id, int version) {
    Policies.require(principal, Operation.GUARDRAILS_GET);
    return assembly.engine.guardrails().get(principal, id, version);
  }

  @Override
  public List<Guardrail> list() {
    Policies.require(principal, Operation.GUARDRAILS_LIST);
    return assembly.engine.guardrails().list(principal);
  }

  @Override
  public List<Guardrail> versions(GuardrailId id) {
    Policies.require(principal, Operation.GUARDRAILS_GET);
    return assembly.engine.guardrails().versions(principal, id);
  }

  @Override
  public Guardrail update(GuardrailId id, GuardrailRequest request) {
    Policies.require(principal, Operation.GUARDRAILS_UPDATE);
    return assembly.engine.guardrails().update(principal, id, request);
  }

  @Override
  public Guardrail delete(GuardrailId id) {
    Policies.require(principal, Operation.GUARDRAILS_DELETE);
    return assembly.engine.guardrails().delete(principal, id);
  }

  @Override
  public Job approve(JobId job, String reason) {
    Policies.require(principal, Operation.GUARDRAILS_DECIDE);
    return assembly.engine.approvals().approve(principal, job, reason);
  }

  @Override
  public Job reject(JobId job, String reason) {
    Policies.require(principal, Operation.GUARDRAILS_DECIDE);
    return assembly.engine.approvals().reject(principal, job, reason);
  }

  @Override
  public dev.zop.provisioner.GuardrailTrial tryOut(GuardrailRequest request, int lastPlans) {
    Policies.require(principal, Operation.GUARDRAILS_TRY);
    return assembly.jobs.tryGuardrail(principal, request, lastPlans);
  }

  @Override
  public dev.zop.provisioner.GuardrailExemption exempt(dev.zop.provisioner.GuardrailExemptionRequest request) {
    Policies.require(principal, Operation.GUARDRAILS_EXEMPT);
    return assembly.engine.guardrails().exempt(principal, request);
  }

  @Override
  public List<dev.zop.provisioner.GuardrailExemption> exemptions() {
    Policies.require(principal, Operation.GUARDRAILS_LIST_EXEMPTIONS);
    return assembly.engine.guardrails().exemptions(principal);
  }

  @Override
  public dev.zop.provisioner.GuardrailExemption revokeExemption(String id) {
    Policies.require(principal, Operation.GUARDRAILS_REVOKE_EXEMPTION);
    return assembly.engine.guardrails().revokeExemption(principal, id);
  }

  @Override
  public List<GuardrailDecision> decisions(int limit) {
    Policies.require(principal, Operation.GUARDRAILS_DECISIONS);
    return assembly.engine.guardrails().decisions(principal, limit);
  }

  @Override
  public List<GuardrailDecision> decisions(JobId job) {
    Policies.require(principal, Operation.GUARDRAILS_GET);
    assembly.jobs.get(principal, job); // the job must be the organisation's
    return assembly.engine.guardrails().decisions(principal, job);
  }
}
