package dev.zop.provisioner.kit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpStatusClassifierTest {
  private final HttpStatusClassifier http = new HttpStatusClassifier("gcp", new HttpStatusClassifier.Hints(
      "Check the service account key.", "the service account this cloud account uses",
      "https://console.example/iam", "https://console.example/quotas"));

  @ParameterizedTest
  @CsvSource({
      "401, USER_ACTION, invalid_credentials",
      "403, USER_ACTION, access_denied",
      "429, TRANSIENT, throttled",
      "500, TRANSIENT, gcp_unavailable",
      "503, TRANSIENT, gcp_unavailable",
      "400, USER_ACTION, invalid_parameter",
      "422, USER_ACTION, invalid_parameter",
      "418, SYSTEM, gcp_error"})
  void theStatusDecidesTheClass(int status, FailureCategory category, String code) {
    Failure failure = http.classify(status, "boom", "compute.instances.insert");
    assertThat(failure.category()).isEqualTo(category);
    assertThat(failure.code()).isEqualTo(code);
    assertThat(failure.message()).contains("compute.instances.insert: boom");
  }

  @Test
  void accessDeniedNamesThePermissionAndWhoNeedsIt() {
    Failure failure = http.classify(403, "denied", "compute.instances.insert");
    assertThat(failure.fixHint()).contains("compute.instances.insert")
        .contains("the service account this cloud account uses");
    assertThat(failure.consoleUrl()).isEqualTo("https://console.example/iam");
  }

  @Test
  void aMissingMessageNeverBreaksTheClassifier() {
    assertThat(http.classify(503, null, null).code()).isEqualTo("gcp_unavailable");
    assertThat(http.unreachable(String.valueOf((Object) null)).code()).isEqualTo("gcp_unreachable");
  }

  @Test
  void ownerTagsAdoptOnlyTheirOwnJob() {
    OwnerTags tags = new OwnerTags("zop-job", "zop-part");
    TestContexts ctx = TestContexts.job("job_abc");
    assertThat(tags.of(ctx, "vpc")).containsEntry("zop-job", "job_abc").containsEntry("zop-part", "vpc");
    assertThat(tags.owns(Map.of("zop-job", "job_abc"), ctx)).isTrue();
    assertThat(tags.owns(Map.of("zop-job", "job_other"), ctx)).isFalse();
    assertThat(tags.refuseForeign(null, ctx, "VPC", "net")).isNull();
    assertThat(tags.refuseForeign(Map.of("zop-job", "job_abc"), ctx, "VPC", "net")).isNull();
    assertThat(tags.refuseForeign(Map.of(), ctx, "VPC", "net").code()).isEqualTo(FailureCodes.NAME_IN_USE);
  }
}
