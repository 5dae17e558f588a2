package dev.zop.provisioner.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.DatabaseStatus;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.remediation.StepKind;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.spec.DatastoreEngine;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The wire enums are written as their {@code @JsonValue} names, alone and inside lists and maps, and read back. */
class WireEnumsTest {
  private final ObjectMapper wire = WireJson.strict();
  private final ObjectMapper plain = new ObjectMapper();

  @Test
  void everyConstantIsWrittenAsJacksonWritesItAndReadsBack() throws Exception {
    for (Class<? extends Enum<?>> type : List.of(JobStatus.class, JobKind.class, JobPhase.class, JobType.class,
        StepStatus.class, FailureCategory.class, JobEventType.class, SpaceStatus.class, DatabaseStatus.class,
        StepKind.class, SubjectType.class, DatastoreEngine.class)) {
      for (Enum<?> constant : type.getEnumConstants()) {
        String written = wire.writeValueAsString(constant);
        assertThat(written).as("%s.%s", type.getSimpleName(), constant).isEqualTo(plain.writeValueAsString(constant))
            .isNotEqualTo('"' + constant.name() + '"');
        assertThat(wire.readValue(written, type)).isEqualTo(constant);
      }
      assertThat(wire.getSerializerProviderInstance().findValueSerializer(type))
          .as("found once, not Jackson's reflective @JsonValue serializer")
          .isNotInstanceOf(com.fasterxml.jackson.databind.ser.std.JsonValueSerializer.class);
      List<?> all = Arrays.asList(type.getEnumConstants());
      assertThat(wire.writeValueAsString(all)).isEqualTo(plain.writeValueAsString(all));
      Map<String, ?> keyed = Map.of("only", all.get(0));
      assertThat(wire.writeValueAsString(keyed)).isEqualTo(plain.writeValueAsString(keyed));
    }
  }
}
