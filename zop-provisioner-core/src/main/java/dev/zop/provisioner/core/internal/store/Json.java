package dev.zop.provisioner.core.internal.store;

import com.fasterxml.jackson.core.JsonGenerator;
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
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.LocalDate;
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

  /**
   * A flat map of strings as JSON, as the mapper writes it but token by token: every step's success writes its
   * job's outputs, and the mapper's databind path cost several times as much.
   */
  public static String writeStringMap(Map<String, String> map) {
    if (map.isEmpty()) {
      return "{}";
    }
    StringWriter out = new StringWriter(48 * map.size());
    try (JsonGenerator json = MAPPER.getFactory().createGenerator(out)) {
      json.writeStartObject();
      for (Map.Entry<String, String> entry : map.entrySet()) {
        json.writeFieldName(entry.getKey());
        json.writeString(entry.getValue());
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write a map of strings", e);
    }
    return out.toString();
  }

  /** The first day of the year 10000, in seconds from the epoch: {@link #instant} makes the years before it. */
  private static final long YEAR_10000 = 253_402_300_800L;

  /** The day {@link #instant} wrote last, and its date as text: a running engine's times fall on one day. */
  private record Day(long epochDay, String date) {}

  private static volatile Day lastDay = new Day(0, "1970-01-01");

  /**
   * {@code at} as {@link Instant#toString} writes it: made by arithmetic for the years 1970 to 9999, and by that
   * method outside them. A running job's every write stamps its steps' and entries' times, and the formatter's
   * general path was some 3% of the engine's work a step.
   */
  public static String instant(Instant at) {
    long seconds = at.getEpochSecond();
    if (seconds < 0 || seconds >= YEAR_10000) {
      return at.toString();
    }
    long epochDay = seconds / 86_400;
    Day day = lastDay;
    if (day.epochDay() != epochDay) {
      day = new Day(epochDay, LocalDate.ofEpochDay(epochDay).toString());
      lastDay = day;
    }
    int secondOfDay = (int) (seconds % 86_400);
    StringBuilder text = new StringBuilder(30).append(day.date()).append('T');
    twoDigits(text, secondOfDay / 3600).append(':');
    twoDigits(text, secondOfDay / 60 % 60).append(':');
    twoDigits(text, secondOfDay % 60);
    int nano = at.getNano();
    if (nano != 0) {
      // in groups of three digits, as few as hold it, as Instant#toString writes them
      int digits = nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
      int value = digits == 3 ? nano / 1_000_000 : digits == 6 ? nano / 1_000 : nano;
      String figures = Integer.toString(value);
      text.append('.');
      for (int i = figures.length(); i < digits; i++) {
        text.append('0');
      }
      text.append(figures);
    }
    return text.append('Z').toString();
  }

  private static StringBuilder twoDigits(StringBuilder text, int value) {
    return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
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
