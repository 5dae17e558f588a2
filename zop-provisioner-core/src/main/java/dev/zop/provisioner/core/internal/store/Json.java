package dev.zop.provisioner.core.internal.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.ResourceSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** JSON for the documents the engine stores: specs, outputs, tags, failures. */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper()
      .registerModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  // Readers built once: reading through the mapper with a type reference resolves the type and looks up its
  // deserializer on every call, which was a twentieth of the engine's CPU per step (every claim reads its jobs'
  // specs, outputs and permissions back).
  private static final ObjectReader STRING_MAP =
      MAPPER.readerFor(new TypeReference<LinkedHashMap<String, String>>() {});
  private static final ObjectReader STRING_LIST = MAPPER.readerFor(new TypeReference<List<String>>() {});
  private static final ObjectReader FAILURE = MAPPER.readerFor(Failure.class);
  private static final Map<JobKind, ObjectReader> SPECS = new ConcurrentHashMap<>();

  private Json() {}

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  public static Map<String, String> stringMap(String json) {
    if (json == null) {
      return Map.of();
    }
    if (json.equals("{}")) { // most tags and many outputs: a parser's set-up costs more than reading a few entries
      return new LinkedHashMap<>();
    }
    // Read token by token: a page of jobs reads a few hundred of these maps (tags, outputs, each step's outputs),
    // and the reader's databind path cost three times as much. Anything but a flat object of strings (which we
    // never write) goes to the reader, which keeps its coercions and its errors.
    try (JsonParser parser = MAPPER.getFactory().createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return read(json, STRING_MAP);
      }
      Map<String, String> map = new LinkedHashMap<>();
      for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
        String value = parser.nextTextValue();
        if (value == null && parser.currentToken() != JsonToken.VALUE_NULL) {
          return read(json, STRING_MAP);
        }
        map.put(name, value);
      }
      return parser.currentToken() == JsonToken.END_OBJECT && parser.nextToken() == null ? map
          : read(json, STRING_MAP);
    } catch (java.io.IOException e) {
      return read(json, STRING_MAP);
    }
  }

  public static List<String> stringList(String json) {
    if (json == null) {
      return List.of();
    }
    if (json.equals("[]")) {
      return new java.util.ArrayList<>();
    }
    // as stringMap: a flat array of strings token by token, anything else through the reader
    try (JsonParser parser = MAPPER.getFactory().createParser(json)) {
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        return read(json, STRING_LIST);
      }
      List<String> list = new java.util.ArrayList<>();
      for (String value = parser.nextTextValue(); ; value = parser.nextTextValue()) {
        if (value != null || parser.currentToken() == JsonToken.VALUE_NULL) {
          list.add(value);
        } else if (parser.currentToken() == JsonToken.END_ARRAY && parser.nextToken() == null) {
          return list;
        } else {
          return read(json, STRING_LIST);
        }
      }
    } catch (java.io.IOException e) {
      return read(json, STRING_LIST);
    }
  }

  public static Failure failure(String json) {
    return json == null ? null : read(json, FAILURE);
  }

  public static String failureJson(Failure failure) {
    return failure == null ? null : write(failure);
  }

  public static ResourceSpec spec(JobKind kind, String json) {
    try {
      return SPECS.computeIfAbsent(kind, k -> MAPPER.readerFor(specType(k))).readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored " + kind.wireName() + " spec is unreadable", e);
    }
  }

  public static Class<? extends ResourceSpec> specType(JobKind kind) {
    return ResourceSpec.typeFor(kind);
  }

  private static <T> T read(String json, ObjectReader reader) {
    try {
      return reader.readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored document is unreadable", e);
    }
  }
}
