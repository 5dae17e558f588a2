package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.wire.Requests.Decision;
import dev.zop.provisioner.wire.Requests.StartRemediation;
import dev.zop.provisioner.remediation.AuditEntry;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.Remediations;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import java.time.Duration;
import java.util.List;
import okhttp3.HttpUrl;

/** {@link Remediations} over {@code /remediation-jobs}. */
public final class RemoteRemediations implements Remediations {
  static final String JOBS = "remediation-jobs";

  private static final TypeReference<Page<RemediationJob>> PAGE = new TypeReference<>() {};
  private static final TypeReference<List<AuditEntry>> AUDIT = new TypeReference<>() {};
  private static final TypeReference<List<WorkflowTemplate>> TEMPLATES = new TypeReference<>() {};

  private final HttpTransport http;

  public RemoteRemediations(HttpTransport http) {
    this.http = http;
  }

  @Override
  public RemediationJob start(String recommendationId, SubjectType subjectType, String subjectId) {
    return http.send("POST", new StartRemediation(recommendationId, subjectType.wireName(), subjectId),
        RemediationJob.class, JOBS);
  }

  @Override
  public RemediationJob get(JobId id) {
    return http.get(RemediationJob.class, JOBS, id.value());
  }

  @Override
  public Page<RemediationJob> list(int limit, String cursor, dev.zop.provisioner.ListOrder order) {
    HttpUrl.Builder url = http.url(JOBS).addQueryParameter("limit", Integer.toString(limit))
        .addQueryParameter("order", order.wireName());
    if (cursor != null) {
      url.addQueryParameter("cursor", cursor);
    }
    return http.get(url.build(), PAGE.getType());
  }

  @Override
  public RemediationJob approve(JobId id, StepRef step, String reason) {
    return decide(id, step, "approve", reason);
  }

  @Override
  public RemediationJob reject(JobId id, StepRef step, String reason) {
    return decide(id, step, "reject", reason);
  }

  private RemediationJob decide(JobId id, StepRef step, String verb, String reason) {
    if (step instanceof StepRef.ById byId) {
      return http.send("POST", new Decision(reason), RemediationJob.class, JOBS, id.value(), "steps-by-id",
          byId.id().toString(), verb);
    }
    return http.send("POST", new Decision(reason), RemediationJob.class, JOBS, id.value(), "steps",
        ((StepRef.ByName) step).name(), verb);
  }

  @Override
  public RemediationJob cancel(JobId id, String reason) {
    return http.send("POST", new Decision(reason), RemediationJob.class, JOBS, id.value(), "cancel");
  }

  @Override
  public RemediationJob await(JobId id, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = Math.max(0, Math.min(deadline - System.nanoTime(), RemoteJobs.LONG_POLL.toNanos()));
      HttpUrl url = http.url(JOBS, id.value(), "await")
          .addQueryParameter("timeoutMs", Long.toString(Duration.ofNanos(left).toMillis())).build();
      RemediationJob job = http.get(url, RemediationJob.class);
      if (job.status().isTerminal()) {
        return job;
      }
      if (System.nanoTime() >= deadline) {
        throw new AwaitTimeoutException(id, job.status());
      }
    }
  }

  @Override
  public List<AuditEntry> audit(JobId id) {
    return http.get(AUDIT.getType(), JOBS, id.value(), "audit");
  }

  @Override
  public void putRecommendation(Recommendation recommendation) {
    http.send("PUT", recommendation, Void.class, "recommendations", recommendation.id());
  }

  @Override
  public List<Recommendation> recommendations() {
    return http.get(RECOMMENDATIONS.getType(), "recommendations");
  }

  private static final com.fasterxml.jackson.core.type.TypeReference<List<Recommendation>> RECOMMENDATIONS =
      new com.fasterxml.jackson.core.type.TypeReference<>() {};

  @Override
  public List<WorkflowTemplate> templates() {
    return http.get(TEMPLATES.getType(), "remediation-templates");
  }
}
