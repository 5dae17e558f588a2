package dev.zop.provisioner.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stored maps and lists of strings read back exactly as Jackson's databind reads them, whatever the document. */
class JsonTest {
  private static final TypeReference<LinkedHashMap<String, String>> MAP = new TypeReference<>() {};
  private static final TypeReference<List<String>> LIST = new TypeReference<>() {};

  @Test
  void mapsReadAsTheDatabindReaderReadsThem() throws Exception {
    for (String json : List.of("{}", " { } ", "{\"a\":\"b\"}", "{\"repository.id\":\"sim:r/1\",\"uri\":\"x/y\"}",
        "{\"q\":\"\\\"quoted\\\" \\u00e9\\n\",\"\\u0000k\":\"v\"}", "{\"a\":null,\"b\":\"c\"}", "{\"a\":\"1\",\"a\":\"2\"}",
        "{\"n\":1,\"t\":true,\"f\":1.5}", "{\"a\":\"b\"} trailing", "{\"a\":\"b\"}{}")) {
      Map<String, String> expected = Json.MAPPER.readValue(json, MAP);
      assertThat(Json.stringMap(json)).as(json).isEqualTo(expected).isInstanceOf(LinkedHashMap.class);
      assertThat(List.copyOf(Json.stringMap(json).keySet())).as(json).isEqualTo(List.copyOf(expected.keySet()));
    }
    assertThat(Json.stringMap(null)).isEmpty();
  }

  @Test
  void listsReadAsTheDatabindReaderReadsThem() throws Exception {
    for (String json : List.of("[]", " [ ] ", "[\"a\"]", "[\"eks:CreateCluster\",\"iam:PassRole\"]",
        "[\"\\\"x\\\"\",null,\"\\u00e9\"]", "[1,true,\"s\"]", "[\"a\"] trailing")) {
      assertThat(Json.stringList(json)).as(json).isEqualTo(Json.MAPPER.readValue(json, LIST));
    }
    assertThat(Json.stringList(null)).isEmpty();
  }

  @Test
  void whatTheReaderRefusesIsStillRefused() {
    for (String json : List.of("{\"a\":{\"nested\":\"x\"}}", "{\"a\":\"b\"", "[\"a\",[\"b\"]]", "[\"a\"", "\"text\"")) {
      assertThatThrownBy(() -> {
        Object read = json.startsWith("[") ? Json.stringList(json) : Json.stringMap(json);
      }).as(json)
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("unreadable");
    }
  }

  @Test
  void mapsWrittenAsTheMapperWritesThem() throws Exception {
    Map<String, String> odd = new LinkedHashMap<>();
    odd.put("q", "\"quoted\" \u00e9\n\t\\");
    odd.put("\u0000k", "v");
    odd.put("none", null);
    odd.put("", "");
    for (Map<String, String> map : List.of(Map.<String, String>of(), Map.of("a", "b"), odd,
        new LinkedHashMap<>(Map.of("network.id", "sim:r/1", "uri", "x/y")))) {
      assertThat(Json.writeStringMap(map)).as(map.toString()).isEqualTo(Json.MAPPER.writeValueAsString(map));
    }
  }

  @Test
  void instantsWrittenAsInstantWritesThem() {
    java.util.List<java.time.Instant> instants = new java.util.ArrayList<>(List.of(java.time.Instant.EPOCH,
        java.time.Instant.parse("1969-12-31T23:59:59.999999Z"), java.time.Instant.parse("2026-12-07T00:00:00Z"),
        java.time.Instant.parse("2026-12-07T09:05:03.100Z"), java.time.Instant.parse("2026-12-07T23:59:59.000001Z"),
        java.time.Instant.parse("2028-02-29T12:00:00.000000010Z"), java.time.Instant.parse("9999-12-31T23:59:59.999Z"),
        java.time.Instant.parse("+10000-01-01T00:00:00Z"), java.time.Instant.now()));
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 20_000; i++) {
      long seconds = random.nextLong(-100_000_000_000L, 300_000_000_000L);
      int nano = switch (i % 4) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1_000;
        default -> random.nextInt(1_000_000_000);
      };
      instants.add(java.time.Instant.ofEpochSecond(seconds, nano));
    }
    for (java.time.Instant at : instants) {
      assertThat(Json.instant(at)).isEqualTo(at.toString());
    }
  }
}
