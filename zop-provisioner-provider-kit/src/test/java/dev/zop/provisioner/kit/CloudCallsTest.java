package dev.zop.provisioner.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.spi.StepResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CloudCallsTest {
  /** Stands in for an SDK's exception type. */
  static final class CloudError extends RuntimeException {
    final int status;

    CloudError(int status) {
      super("HTTP " + status);
      this.status = status;
    }
  }

  private final CloudCalls calls = new CloudCalls(e -> e instanceof CloudError,
      e -> e instanceof CloudError c && c.status == 404);

  @Test
  void aFailedCallCarriesItsPermission() {
    assertThatThrownBy(() -> calls.call("svc:Create", () -> {
      throw new CloudError(500);
    })).isInstanceOfSatisfying(CloudCallException.class, e -> {
      assertThat(e.permission()).isEqualTo("svc:Create");
      assertThat(e.getCause()).isInstanceOf(CloudError.class);
      assertThat(CloudCallException.permissionOf(e)).isEqualTo("svc:Create");
      assertThat(CloudCallException.unwrap(e)).isSameAs(e.getCause());
    });
  }

  @Test
  void errorsThatAreNotTheCloudsPassThroughUntouched() {
    IllegalArgumentException bug = new IllegalArgumentException("a bug");
    assertThatThrownBy(() -> calls.call("svc:Create", () -> {
      throw bug;
    })).isSameAs(bug);
  }

  @Test
  void findOrNullAnswersNullOnlyForNotFound() {
    assertThat(calls.findOrNull("svc:Get", () -> "found")).isEqualTo("found");
    assertThat((Object) calls.findOrNull("svc:Get", () -> {
      throw new CloudError(404);
    })).isNull();
    assertThatThrownBy(() -> calls.findOrNull("svc:Get", () -> {
      throw new CloudError(403);
    })).isInstanceOf(CloudCallException.class);
  }

  @Test
  void deletingWhatIsGoneIsSuccess() {
    assertThat(calls.deleteIfExists("svc:Delete", () -> { })).isTrue();
    assertThat(calls.deleteIfExists("svc:Delete", () -> {
      throw new CloudError(404);
    })).isFalse();
    assertThatThrownBy(() -> calls.deleteIfExists("svc:Delete", () -> {
      throw new CloudError(409);
    })).isInstanceOf(CloudCallException.class);
    assertThat(calls.isNotFound(new CloudCallException("svc:Delete", new CloudError(404)))).isTrue();
  }

  @Test
  void aStepMayCallOnlyWhatItDeclares() throws Exception {
    ProviderStep declared = ProviderStep.of("create", List.of("svc:Get", "svc:Create"), ctx -> {
      calls.call("svc:Get", () -> "x");
      calls.run("svc:Create", () -> { });
      return StepResult.done(Map.of("ok", "yes"));
    });
    assertThat(declared.run(TestContexts.job("job_1"))).isEqualTo(StepResult.done(Map.of("ok", "yes")));

    ProviderStep undeclared = ProviderStep.of("create", List.of("svc:Get"), ctx -> {
      calls.run("svc:Create", () -> { });
      return StepResult.done();
    });
    assertThatThrownBy(() -> undeclared.run(TestContexts.job("job_1")))
        .isInstanceOfSatisfying(UndeclaredPermissionException.class,
            e -> assertThat(e.permission()).isEqualTo("svc:Create"));
  }

  @Test
  void outsideAStepNothingIsChecked() {
    assertThat(calls.call("svc:Anything", () -> 1)).isEqualTo(1);
  }
}
