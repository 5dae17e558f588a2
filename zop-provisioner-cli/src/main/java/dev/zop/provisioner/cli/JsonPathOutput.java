package dev.zop.provisioner.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.spi.json.JacksonJsonNodeJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code -o jsonpath=EXPR}: the answer as the REST API writes it, through a JSONPath expression, written as kubectl
 * takes one ({@code {.data[*].id}}) or as JSONPath itself ({@code $.data[*].id}). Several values print on one
 * line, space-separated, as kubectl prints them; strings bare, anything else as JSON.
 */
final class JsonPathOutput {
  private static final Configuration TREE = Configuration.builder()
      .jsonProvider(new JacksonJsonNodeJsonProvider(ClientOptions.JSON))
      .mappingProvider(new JacksonMappingProvider(ClientOptions.JSON)).options(Option.SUPPRESS_EXCEPTIONS).build();

  private JsonPathOutput() {}

  static String select(JsonNode answer, String expression) {
    String path = expression.strip();
    if (path.startsWith("{") && path.endsWith("}")) {
      path = path.substring(1, path.length() - 1).strip();
    }
    if (path.startsWith(".") || path.startsWith("[")) {
      path = "$" + path;
    }
    if (!path.startsWith("$")) {
      throw new IllegalArgumentException("jsonpath: '" + expression + "' is not a path; write it as"
          + " {.data[*].id} or $.data[*].id");
    }
    JsonNode found;
    try {
      found = JsonPath.using(TREE).parse(answer).read(path);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("jsonpath: " + e.getMessage());
    }
    if (found == null || found.isMissingNode() || found.isNull()) {
      return "";
    }
    boolean several = found.isArray() && !JsonPath.isPathDefinite(path);
    List<String> values = new ArrayList<>();
    if (several) {
      found.forEach(value -> values.add(text(value)));
    } else {
      values.add(text(found));
    }
    return String.join(" ", values);
  }

  private static String text(JsonNode value) {
    return value.isValueNode() && !value.isNull() ? value.asText() : value.toString();
  }
}
