package dev.zop.provisioner.kit;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.SecretStore;
import dev.zop.provisioner.spi.StepContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A step context with a fixed job and start time, for the kit's own tests; it keeps the intents steps record. */
record TestContexts(JobId jobId, Instant startedAt, List<Map<String, String>> intents) implements StepContext {

  TestContexts(JobId jobId, Instant startedAt) {
    this(jobId, startedAt, new ArrayList<>());
  }

  static TestContexts job(String id) {
    return new TestContexts(JobId.of(id), Instant.now());
  }

  @Override
  public UUID stepId() {
    return UUID.nameUUIDFromBytes(jobId.value().getBytes());
  }

  @Override
  public int attempt() {
    return 1;
  }

  @Override
  public Outputs outputs() {
    return Outputs.of(Map.of());
  }

  @Override
  public void recordIntent(Map<String, String> intent) {
    intents.add(intent);
  }

  @Override
  public SecretStore secrets() {
    throw new UnsupportedOperationException("not used by these tests");
  }

  @Override
  public void log(String message) {
    // nothing to record
  }
}
