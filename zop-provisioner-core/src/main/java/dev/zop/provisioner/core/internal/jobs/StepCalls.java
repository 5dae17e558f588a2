package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.util.function.BooleanSupplier;
import org.slf4j.MDC;

/**
 * Runs a step's body once: inside its span (a child of the job's, see {@link EngineTracing}), with the job and step
 * in the logging MDC so whatever the step and its provider log names them; what it throws becomes a failed result,
 * classified by the provider, except a lost lease (or a halted engine), which stops the run.
 */
final class StepCalls {
  private final EngineTracing tracing;
  private final BooleanSupplier halted;

  StepCalls(EngineTracing tracing, BooleanSupplier halted) {
    this.tracing = tracing;
    this.halted = halted;
  }

  StepResult run(JobRecord job, Step step, StepContext context, ProviderSession session) {
    Span span = tracing.step(job, step.name(), context.attempt());
    try (Scope ignored = span.makeCurrent();
        MDC.MDCCloseable jobId = MDC.putCloseable("zop.job", job.id().value());
        MDC.MDCCloseable stepName = MDC.putCloseable("zop.step", step.name())) {
      StepResult result = invoke(step, context, session);
      if (result instanceof StepResult.Failed failed) {
        EngineTracing.failed(span, failed.failure());
      }
      return result;
    } catch (RuntimeException | Error e) {
      EngineTracing.failed(span, e);
      throw e;
    } finally {
      span.end();
    }
  }

  private StepResult invoke(Step step, StepContext context, ProviderSession session) {
    try {
      StepResult result = step.run(context);
      if (result == null) {
        return StepResult.fail(Failure.system("step_returned_null", "step " + step.name() + " returned no result"));
      }
      return result;
    } catch (LeaseLostException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return StepResult.fail(Failure.transientFailure("interrupted", "the engine was interrupted"));
    } catch (Exception e) {
      if (halted.getAsBoolean()) {
        throw new LeaseLostException(context.jobId());
      }
      Failure failure = session.classify(e);
      return StepResult.fail(failure != null ? failure : Failure.system("unclassified", String.valueOf(e)));
    }
  }
}
