package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDecision;
import dev.zop.provisioner.GuardrailId;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.Guardrails;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.wire.Requests.Decision;
import dev.zop.provisioner.wire.Requests.GuardrailPatch;
import java.util.List;

/** {@link Guardrails} over {@code /guardrails} and a job's {@code approve}, {@code reject} and decisions. */
public final class RemoteGuardrails implements Guardrails {
  private static final String GUARDRAILS = "guardrails";
  private static final TypeReference<List<Guardrail>> LIST = new TypeReference<>() {};
  private static final TypeReference<List<GuardrailDecision>> DECISIONS = new TypeReference<>() {};
  private static final String EXEMPTIONS = "guardrail-exemptions";
  private static final TypeReference<List<dev.zop.provisioner.GuardrailExemption>> EXEMPTION_LIST =
      new TypeReference<>() {};

  private final HttpTransport http;

  public RemoteGuardrails(HttpTransport http) {
    this.http = http;
  }

  @Override
  public Guardrail create(GuardrailRequest request) {
    return http.send("POST", request, Guardrail.class, GUARDRAILS);
  }

  @Override
  public Guardrail get(GuardrailId id) {
    return http.get(Guardrail.class, GUARDRAILS, id.value());
  }

  @Override
  public Guardrail get(GuardrailId id, int version) {
    return http.get(Guardrail.class, GUARDRAILS, id.value(), "versions", Integer.toString(version));
  }

  @Override
  public List<Guardrail> list() {
    return http.get(LIST.getType(), GUARDRAILS);
  }

  @Override
  public List<Guardrail> versions(GuardrailId id) {
    return http.get(LIST.getType(), GUARDRAILS, id.value(), "versions");
  }

  @Override
  public Guardrail update(GuardrailId id, GuardrailRequest request) {
    return http.send("PATCH", new GuardrailPatch(request.name(), request.level(), request.rule(), request.scope(),
        request.approverGrant(), request.description(), request.enabled()), Guardrail.class, GUARDRAILS, id.value());
  }

  @Override
  public Guardrail delete(GuardrailId id) {
    return http.send("DELETE", null, Guardrail.class, GUARDRAILS, id.value());
  }

  @Override
  public Job approve(JobId job, String reason) {
    return http.send("POST", new Decision(reason), Job.class, RemoteJobs.JOBS, job.value(), "approve");
  }

  @Override
  public Job reject(JobId job, String reason) {
    return http.send("POST", new Decision(reason), Job.class, RemoteJobs.JOBS, job.value(), "reject");
  }

  @Override
  public dev.zop.provisioner.GuardrailTrial tryOut(GuardrailRequest request, int lastPlans) {
    return http.call("POST", http.url(GUARDRAILS, "try").addQueryParameter("lastPlans", Integer.toString(lastPlans))
        .build(), request, dev.zop.provisioner.GuardrailTrial.class);
  }

  @Override
  public dev.zop.provisioner.GuardrailExemption exempt(dev.zop.provisioner.GuardrailExemptionRequest request) {
    return http.send("POST", request, dev.zop.provisioner.GuardrailExemption.class, EXEMPTIONS);
  }

  @Override
  public List<dev.zop.provisioner.GuardrailExemption> exemptions() {
    return http.get(EXEMPTION_LIST.getType(), EXEMPTIONS);
  }

  @Override
  public dev.zop.provisioner.GuardrailExemption revokeExemption(String id) {
    return http.send("DELETE", null, dev.zop.provisioner.GuardrailExemption.class, EXEMPTIONS, id);
  }

  @Override
  public List<GuardrailDecision> decisions(int limit) {
    return http.get(http.url("guardrail-decisions").addQueryParameter("limit", Integer.toString(limit)).build(),
        DECISIONS.getType());
  }

  @Override
  public List<GuardrailDecision> decisions(JobId job) {
    return http.get(DECISIONS.getType(), RemoteJobs.JOBS, job.value(), "guardrail-decisions");
  }
}
