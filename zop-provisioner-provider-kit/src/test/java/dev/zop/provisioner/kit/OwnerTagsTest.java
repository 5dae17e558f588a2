package dev.zop.provisioner.kit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.spi.StepResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The kit's create-or-adopt and change-in-place patterns, against a cloud of one resource held in memory. */
class OwnerTagsTest {
  private static final OwnerTags OWNER = new OwnerTags("zop:job", "zop:part");

  /** A resource as the cloud holds it: its tags and its size. */
  private record Held(Map<String, String> tags, int size) {}

  private final AtomicReference<Held> cloud = new AtomicReference<>();
  private final List<String> calls = new ArrayList<>();

  @Test
  void createOrAdoptRecordsTheIntentThenCreatesWhenNothingIsThere() throws Exception {
    TestContexts ctx = job("job_1");
    StepResult result = OWNER.createOrAdopt(ctx, "cluster", "c1", cloud::get, Held::tags, Map.of("name", "c1"),
        () -> {
          calls.add("create with intent " + ctx.intents());
          cloud.set(new Held(OWNER.of(ctx), 2));
        }, Map.of("name", "c1"));

    assertThat(calls).containsExactly("create with intent [{name=c1}]");
    assertThat(result).isEqualTo(StepResult.done(Map.of("name", "c1")));
  }

  @Test
  void createOrAdoptAdoptsItsOwnJobsResourceWithoutAskingAgain() throws Exception {
    TestContexts ctx = job("job_1");
    cloud.set(new Held(OWNER.of(ctx), 2)); // an earlier run made it, then crashed before recording it

    StepResult result = OWNER.createOrAdopt(ctx, "cluster", "c1", cloud::get, Held::tags, Map.of("name", "c1"),
        () -> calls.add("create"), Map.of("name", "c1"));

    assertThat(calls).isEmpty();
    assertThat(ctx.intents()).isEmpty();
    assertThat(result).isEqualTo(StepResult.done(Map.of("name", "c1")));
  }

  @Test
  void createOrAdoptRefusesANameAnotherJobHolds() throws Exception {
    cloud.set(new Held(Map.of("zop:job", "job_other"), 2));

    StepResult result = OWNER.createOrAdopt(job("job_1"), "cluster", "c1", cloud::get, Held::tags,
        Map.of(), () -> calls.add("create"), Map.of("name", "c1"));

    assertThat(calls).isEmpty();
    assertThat(result).isInstanceOfSatisfying(StepResult.Failed.class, fail -> {
      assertThat(fail.failure().code()).isEqualTo(FailureCodes.NAME_IN_USE);
      assertThat(fail.failure().category()).isEqualTo(FailureCategory.USER_ACTION);
      assertThat(fail.failure().message()).contains("cluster 'c1'");
    });
  }

  @Test
  void changeInPlaceChangesOnlyWhatDiffers() throws Exception {
    TestContexts ctx = job("job_1");
    cloud.set(new Held(OWNER.of(ctx), 2));
    OwnerTags.Change<Held> resize = held -> {
      calls.add("resize " + held.size() + " to 3");
      cloud.set(new Held(held.tags(), 3));
    };

    assertThat(OWNER.changeInPlace(ctx, "pool", "p1", cloud::get, Held::tags, held -> held.size() == 3, resize))
        .isEqualTo(StepResult.done());
    // the step run again (a crash after the call, before its success was written) asks nothing twice
    assertThat(OWNER.changeInPlace(ctx, "pool", "p1", cloud::get, Held::tags, held -> held.size() == 3, resize))
        .isEqualTo(StepResult.done());
    assertThat(calls).containsExactly("resize 2 to 3");
  }

  @Test
  void changeInPlaceFailsWhenTheResourceIsGoneOrNotTheJobs() throws Exception {
    OwnerTags.Change<Held> resize = held -> calls.add("resize");

    StepResult gone = OWNER.changeInPlace(job("job_1"), "pool", "p1", cloud::get, Held::tags,
        held -> false, resize);
    cloud.set(new Held(Map.of("zop:job", "job_other"), 2));
    StepResult foreign = OWNER.changeInPlace(job("job_1"), "pool", "p1", cloud::get, Held::tags,
        held -> false, resize);

    assertThat(calls).isEmpty();
    assertThat(gone).isInstanceOfSatisfying(StepResult.Failed.class, fail -> {
      assertThat(fail.failure().code()).isEqualTo("resource_missing");
      assertThat(fail.failure().message()).isEqualTo("pool p1 is gone; it cannot be changed");
    });
    assertThat(foreign).isInstanceOfSatisfying(StepResult.Failed.class,
        fail -> assertThat(fail.failure().code()).isEqualTo(FailureCodes.NAME_IN_USE));
  }

  private static TestContexts job(String id) {
    return new TestContexts(JobId.of(id), Instant.now());
  }
}
