package dev.zop.provisioner.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.client.ProvisionerClient;
import dev.zop.provisioner.wire.WireJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where the service is, who is calling it, and how answers are printed. */
final class ClientOptions {
  static final ObjectMapper JSON = WireJson.lenient().enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper YAML = WireJson.lenient().copyWith(new YAMLFactory()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
  /** Columns a table shows at most: the first scalar fields of the first row, which carry id, name and status. */
  private static final int COLUMNS = 6;

  @Option(names = "--url", defaultValue = "${env:ZOP_URL}",
      description = "the service (env ZOP_URL; else the context's; else http://localhost:5087)")
  String url;

  @Option(names = "--token", defaultValue = "${env:ZOP_TOKEN}",
      description = "a bearer token from `zop tokens create` (env ZOP_TOKEN; else the context's)")
  String token;

  @Option(names = "--context", defaultValue = "${env:ZOP_CONTEXT}",
      description = "a context from `zop config set-context` (env ZOP_CONTEXT; default the current one)")
  String context;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table, json or yaml (default: table on a terminal, json when piped, so scripts get JSON)")
  String output;

  @Option(names = {"-q", "--quiet"},
      description = "print only ids (of what was made, listed or changed) and errors: no tables, no progress")
  boolean quiet;

  /** Flags and environment first, then the context (named, or the current one), then the local default URL. */
  Provisioner client() {
    String resolvedUrl = url;
    String resolvedToken = token;
    if (resolvedUrl == null || resolvedToken == null) {
      Contexts.Context chosen = Contexts.standard(System.getenv()).find(context);
      if (chosen != null) {
        resolvedUrl = resolvedUrl != null ? resolvedUrl : chosen.url();
        resolvedToken = resolvedToken != null ? resolvedToken : chosen.token();
      }
    }
    if (resolvedToken == null || resolvedToken.isBlank()) {
      throw new IllegalArgumentException("no token: pass --token, set ZOP_TOKEN, or add a context (zop config"
          + " set-context NAME --url URL --token-env VAR)");
    }
    return ProvisionerClient.builder().baseUrl(resolvedUrl != null ? resolvedUrl : "http://localhost:5087")
        .bearerToken(resolvedToken).build();
  }

  /**
   * Shows {@code shown} as {@link #show} does, except that a table (asked for, or the default on a terminal) is
   * {@code asText}, a view written for people, not the generic one.
   */
  void show(Object shown, java.util.function.Supplier<String> asText) {
    if (!quiet && format().equals("table")) {
      System.out.println(asText.get());
    } else {
      show(shown);
    }
  }

  /** The output format: the one asked for, else a table on a terminal and JSON in a pipe. */
  private String format() {
    return output != null ? output : System.console() != null ? "table" : "json";
  }

  void show(Object shown) {
    // a page as the REST API writes it: its items under data, the next page's cursor beside them
    Object value = shown instanceof dev.zop.provisioner.Page<?> page ? restPage(page) : shown;
    if (quiet) {
      String ids = ids(JSON.valueToTree(value));
      if (!ids.isEmpty()) {
        System.out.println(ids);
      }
      return;
    }
    String format = format();
    System.out.println(switch (format) {
      case "json" -> write(JSON, value).stripTrailing();
      case "yaml" -> write(YAML, value).stripTrailing();
      case "table" -> table(JSON.valueToTree(value));
      default -> throw new IllegalArgumentException("unknown output format '" + format + "'; use table, json or"
          + " yaml");
    });
  }

  private static Map<String, Object> restPage(dev.zop.provisioner.Page<?> page) {
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("data", page.items());
    body.put("nextCursor", page.nextCursor());
    return body;
  }

  /** The {@code id} of one answer, or of each item of a list or page, one per line. */
  static String ids(JsonNode node) {
    JsonNode rows = node.isArray() ? node : node.has("data") && node.get("data").isArray() ? node.get("data")
        : null;
    if (rows == null) {
      return node.path("id").isValueNode() ? node.get("id").asText() : "";
    }
    List<String> ids = new ArrayList<>();
    rows.forEach(row -> {
      if (row.path("id").isValueNode()) {
        ids.add(row.get("id").asText());
      }
    });
    return String.join("\n", ids);
  }

  private static String write(ObjectMapper mapper, Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A list (or a page's items) as aligned columns; one object as its fields, one per line. Nested values are
   * left to {@code -o json}/{@code yaml}, which show everything.
   */
  static String table(JsonNode node) {
    JsonNode rows = node.isArray() ? node : node.has("data") && node.get("data").isArray() ? node.get("data")
        : null;
    if (rows == null) {
      StringBuilder out = new StringBuilder();
      for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        JsonNode value = field.getValue();
        if (value.isValueNode() && !value.isNull()) {
          out.append(field.getKey()).append(": ").append(value.asText()).append('\n');
        }
      }
      return out.toString().stripTrailing();
    }
    if (rows.isEmpty()) {
      return "(none)";
    }
    List<String> columns = new ArrayList<>();
    rows.get(0).fields().forEachRemaining(f -> {
      if (f.getValue().isValueNode() && columns.size() < COLUMNS) {
        columns.add(f.getKey());
      }
    });
    List<List<String>> cells = new ArrayList<>();
    cells.add(columns.stream().map(c -> c.toUpperCase(java.util.Locale.ROOT)).toList());
    rows.forEach(row -> cells.add(columns.stream().map(c -> row.path(c).isNull() || row.path(c).isMissingNode()
        ? "" : row.path(c).asText()).toList()));
    int[] widths = new int[columns.size()];
    cells.forEach(line -> {
      for (int i = 0; i < line.size(); i++) {
        widths[i] = Math.max(widths[i], line.get(i).length());
      }
    });
    StringBuilder out = new StringBuilder();
    for (List<String> line : cells) {
      for (int i = 0; i < line.size(); i++) {
        out.append(i + 1 == line.size() ? line.get(i) : String.format("%-" + (widths[i] + 2) + "s", line.get(i)));
      }
      out.append('\n');
    }
    if (node.has("nextCursor") && !node.get("nextCursor").isNull()) {
      out.append("(more: --cursor ").append(node.get("nextCursor").asText()).append(")\n");
    }
    return out.toString().stripTrailing();
  }
}
