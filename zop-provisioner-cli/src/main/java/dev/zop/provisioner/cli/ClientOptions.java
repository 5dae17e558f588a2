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
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      // a string such as version "1.30" stays a string: unquoted, YAML reads it back as the number 1.3
      .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));
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

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", completionCandidates = Formats.class,
      description = "table, wide (a table with more columns), json, yaml, name (kind/id, one a line) or"
          + " jsonpath=EXPR (e.g. jsonpath='{.data[*].id}'); default: table on a terminal, json when piped")
  String output;

  /** The formats {@code -o} takes, for shell completion. */
  static final class Formats extends ArrayList<String> {
    Formats() {
      super(List.of("table", "wide", "json", "yaml", "name", "jsonpath="));
    }
  }

  @Option(names = {"-q", "--quiet"},
      description = "print only ids (of what was made, listed or changed) and errors: no tables, no progress")
  boolean quiet;

  /** The client {@link #client()} made last, which tables use to show spaces by name. */
  private Provisioner opened;
  /** The organisation's spaces' names by id, read at the first name a table asks for. */
  private Map<dev.zop.provisioner.SpaceId, String> spaceNames;

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
    opened = ProvisionerClient.builder().baseUrl(resolvedUrl != null ? resolvedUrl : "http://localhost:5087")
        .bearerToken(resolvedToken).build();
    return opened;
  }

  /** The service's base URL as this command resolves it, for links to the console. */
  String baseUrl() {
    String resolved = url;
    if (resolved == null) {
      Contexts.Context chosen = Contexts.standard(System.getenv()).find(context);
      resolved = chosen != null ? chosen.url() : null;
    }
    return resolved != null ? resolved : "http://localhost:5087";
  }

  /**
   * A space's name: the organisation's spaces are listed once a command, at the first name asked for; its id when
   * it is not among them (deleted) or they cannot be read.
   */
  private String spaceName(dev.zop.provisioner.SpaceId id) {
    if (spaceNames == null) {
      spaceNames = new java.util.HashMap<>();
      try {
        if (opened != null) {
          opened.spaces().list().forEach(space -> spaceNames.put(space.id(), space.name()));
        }
      } catch (RuntimeException unreadable) {
        // ids it is, then
      }
    }
    return spaceNames.getOrDefault(id, id.value());
  }

  /**
   * Shows {@code shown} as {@link #show} does, except that a table (asked for, or the default on a terminal) is
   * {@code asText}, a view written for people, not the generic one.
   */
  void show(Object shown, java.util.function.Supplier<String> asText) {
    if (!quiet && (format().equals("table") || format().equals("wide"))) {
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
    if (format.startsWith("jsonpath=")) {
      System.out.println(JsonPathOutput.select(JSON.valueToTree(value), format.substring("jsonpath=".length())));
      return;
    }
    System.out.println(switch (format) {
      case "json" -> write(JSON, value).stripTrailing();
      case "yaml" -> write(YAML, value).stripTrailing();
      case "name" -> names(JSON.valueToTree(value));
      case "table", "wide" -> {
        String view = Views.of(shown, format.equals("wide"), this::spaceName, java.time.Instant.now());
        yield view != null ? view : table(JSON.valueToTree(value));
      }
      default -> throw new IllegalArgumentException("unknown output format '" + format + "'; use table, wide,"
          + " json, yaml, name or jsonpath=EXPR");
    });
  }

  /** Each id as {@code kind/id} (kubectl's {@code -o name}): {@code job/job_...}, {@code space/spc_...}. */
  static String names(JsonNode node) {
    String ids = ids(node);
    return ids.lines().map(id -> noun(id) + "/" + id).collect(java.util.stream.Collectors.joining("\n"));
  }

  private static String noun(String id) {
    String prefix = id.contains("_") ? id.substring(0, id.indexOf('_')) : "";
    return switch (prefix) {
      case "job" -> "job";
      case "spc" -> "space";
      case "ca" -> "account";
      case "db" -> "database";
      case "conn" -> "connection";
      default -> "object";
    };
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
    cells.add(columns.stream().map(ClientOptions::header).toList());
    rows.forEach(row -> cells.add(columns.stream().map(c -> row.path(c).isNull() || row.path(c).isMissingNode()
        ? "" : row.path(c).asText()).toList()));
    String out = Views.aligned(cells);
    if (node.has("nextCursor") && !node.get("nextCursor").isNull()) {
      out += "\n(more: --cursor " + node.get("nextCursor").asText() + ")";
    }
    return out;
  }

  /** A field's name as a header: {@code spaceID} reads SPACE ID, {@code jobType} JOB TYPE. */
  static String header(String field) {
    return field.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toUpperCase(java.util.Locale.ROOT);
  }
}
