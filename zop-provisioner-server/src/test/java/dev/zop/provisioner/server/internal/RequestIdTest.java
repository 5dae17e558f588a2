package dev.zop.provisioner.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Request ids are version 4 UUIDs, as before, and distinct when many threads draw them at once. */
class RequestIdTest {

  @Test
  void requestIdsAreDistinctVersionFourUuids() {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    IntStream.range(0, 200_000).parallel().forEach(i -> seen.add(Dispatcher.newRequestId()));

    assertThat(seen).hasSize(200_000);
    assertThat(seen).allSatisfy(id -> {
      UUID uuid = UUID.fromString(id);
      assertThat(uuid.version()).isEqualTo(4);
      assertThat(uuid.variant()).isEqualTo(2);
      assertThat(uuid.toString()).isEqualTo(id);
    });
  }
}
