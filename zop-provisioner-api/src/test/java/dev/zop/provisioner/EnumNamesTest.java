package dev.zop.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Every wire enum reads its own wire name, the same name in any case or with spaces around it, and nothing else. */
class EnumNamesTest {
  @Test
  void wireNamesReadInAnyCaseAndOthersAreRefusedNamingTheChoices() {
    for (Class<? extends Enum<?>> type : List.of(JobStatus.class, JobKind.class, JobPhase.class, JobType.class,
        StepStatus.class, FailureCategory.class, JobEventType.class, SpaceStatus.class, DatabaseStatus.class)) {
      for (Enum<?> constant : type.getEnumConstants()) {
        String wire = constant.name().toLowerCase(Locale.ROOT);
        assertThat(parse(type, wire)).isSameAs(constant);
        assertThat(parse(type, constant.name())).isSameAs(constant);
        assertThat(parse(type, " " + wire + "\t")).isSameAs(constant);
      }
      assertThatThrownBy(() -> parse(type, "no_such_" + type.getSimpleName())).isInstanceOf(
          IllegalArgumentException.class).hasMessageContaining(EnumNames.names(type));
      assertThatThrownBy(() -> parse(type, null)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Enum<?> parse(Class<? extends Enum<?>> type, String value) {
    return EnumNames.parse((Class) type, value);
  }
}
