package dev.zop.provisioner.core.internal.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.ResourceSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON for the documents the engine stores: specs, outputs, tags, failures. */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper()
      .registerModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private static final TypeReference<LinkedHashMap<String, String>> STRING_MAP = new TypeReference<>() {};
  private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};

  private Json() {}

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  public static Map<String, String> stringMap(String json) {
    return json == null ? Map.of() : read(json, STRING_MAP);
  }

  public static List<String> stringList(String json) {
    return json == null ? List.of() : read(json, STRING_LIST);
  }

  public static Failure failure(String json) {
    return json == null ? null : read(json, new TypeReference<Failure>() {});
  }

  public static String failureJson(Failure failure) {
    return failure == null ? null : write(failure);
  }

  public static ResourceSpec spec(JobKind kind, String json) {
    try {
      return MAPPER.readValue(json, specType(kind));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored " + kind.wireName() + " spec is unreadable", e);
    }
  }

  public static Class<? extends ResourceSpec> specType(JobKind kind) {
    return ResourceSpec.typeFor(kind);
  }

  private static <T> T read(String json, TypeReference<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored document is unreadable", e);
    }
  }
}
