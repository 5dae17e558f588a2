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
}
