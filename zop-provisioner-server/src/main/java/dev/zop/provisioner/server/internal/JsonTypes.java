package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a request field expects, in the API's words rather than Java's: {@code boolean}, {@code integer from
 * -2147483648 to 2147483647}, {@code string}, {@code array of strings}, {@code object}, {@code one of a, b}. Read from
 * the field's declared type as Jackson sees it (names, {@code @JsonValue} ids and enums).
 */
final class JsonTypes {
  private JsonTypes() {}

  /** What the field a mapping error's path ends at expects. */
  static String expected(ObjectMapper json, JsonMappingException e) {
    JavaType declared = declared(json, e);
    if (declared == null && e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      declared = json.constructType(mismatch.getTargetType());
    }
    return declared == null ? "a value of another type" : describe(json, declared);
  }

  /** The declared type of the last field in the error's path, found on the type that holds it. */
  private static JavaType declared(ObjectMapper json, JsonMappingException e) {
    List<JsonMappingException.Reference> path = e.getPath();
    JsonMappingException.Reference last = path.get(path.size() - 1);
    if (last.getFieldName() == null) {
      // an element of a list: what the list holds
      if (path.size() < 2) {
        return null;
      }
      JavaType list = declaredField(json, path.get(path.size() - 2));
      return list != null && list.getContentType() != null ? list.getContentType() : null;
    }
    return declaredField(json, last);
  }

  private static JavaType declaredField(ObjectMapper json, JsonMappingException.Reference reference) {
    Object from = reference.getFrom();
    Class<?> owner = from instanceof Class<?> c ? c : from != null ? from.getClass() : null;
    if (owner == null || reference.getFieldName() == null || java.util.Map.class.isAssignableFrom(owner)) {
      return null;
    }
    for (BeanPropertyDefinition property : json.getDeserializationConfig().introspect(json.constructType(owner))
        .findProperties()) {
      if (property.getName().equals(reference.getFieldName())) {
        return property.getPrimaryType();
      }
    }
    return null;
  }

  static String describe(ObjectMapper json, JavaType type) {
    Class<?> raw = type.getRawClass();
    if (raw == Boolean.class || raw == boolean.class) {
      return "boolean";
    }
    if (raw == Integer.class || raw == int.class) {
      return "an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
    }
    if (raw == Long.class || raw == long.class) {
      return "an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
    }
    if (raw == Short.class || raw == short.class || raw == BigInteger.class) {
      return "an integer";
    }
    if (raw == Double.class || raw == double.class || raw == Float.class || raw == float.class
        || raw == BigDecimal.class || raw == Duration.class) {
      return "a number";
    }
    if (raw == String.class || raw == Instant.class) {
      return raw == Instant.class ? "a date-time string" : "a string";
    }
    if (raw.isEnum()) {
      return "one of " + Arrays.stream(raw.getEnumConstants()).map(constant -> {
        JsonNode wire = json.valueToTree(constant);
        return wire.isTextual() ? wire.asText() : constant.toString();
      }).collect(Collectors.joining(", "));
    }
    if (raw == JsonNode.class || raw == Object.class) {
      return "a JSON value";
    }
    if (type.isCollectionLikeType() || type.isArrayType()) {
      String item = describe(json, type.getContentType());
      return "an array of " + plural(item);
    }
    if (type.isMapLikeType()) {
      return "an object whose values are each " + describe(json, type.getContentType());
    }
    Method value = WireSchemas.jsonValue(raw);
    if (value != null) {
      return describe(json, json.constructType(value.getGenericReturnType()));
    }
    return "an object";
  }

  /** {@code a string} → {@code strings}; {@code an integer from ...} → {@code integers from ...}. */
  private static String plural(String one) {
    String bare = one.startsWith("an ") ? one.substring(3) : one.startsWith("a ") ? one.substring(2) : one;
    int space = bare.indexOf(' ');
    String noun = space < 0 ? bare : bare.substring(0, space);
    String rest = space < 0 ? "" : bare.substring(space);
    return bare.startsWith("one of") ? "values, each " + bare : noun + "s" + rest;
  }
}
