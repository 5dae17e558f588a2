package dev.zop.provisioner.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ChartValuesTest {
  @Test
  void dottedAndNestedKeysMergeWithTheCallersWinning() throws Exception {
    Map<String, Object> merged = ChartValues.merge(
        Map.of("controller.service.type", "LoadBalancer", "controller", Map.of("replicas", 2)),
        Map.of("controller.service.type", "NodePort", "extra", "a,b"));
    assertThat(merged).isEqualTo(Map.of(
        "controller", Map.of("replicas", 2, "service", Map.of("type", "NodePort")),
        "extra", "a,b"));
  }

  @Test
  void aCallersKeyReplacesTheDefaultsBelowAndAbove() throws Exception {
    assertThat(ChartValues.merge(Map.of("a.b", 1, "a.c", 2), Map.of("a", "plain"))).isEqualTo(Map.of("a", "plain"));
    assertThat(ChartValues.merge(Map.of("a", "plain"), Map.of("a.b", 1))).isEqualTo(Map.of("a", Map.of("b", 1)));
  }

  @Test
  void contradictionsAreRefused() {
    assertThatThrownBy(() -> ChartValues.merge(Map.of(), Map.of("a", 1, "a.b", 2)))
        .isInstanceOf(ChartValues.InvalidValuesException.class);
    assertThatThrownBy(() -> ChartValues.merge(Map.of(), Map.of("a..b", 1)))
        .isInstanceOf(ChartValues.InvalidValuesException.class);
  }
}
