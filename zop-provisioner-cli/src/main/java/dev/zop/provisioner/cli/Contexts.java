package dev.zop.provisioner.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code zop} client's contexts: named services, each a URL and where its token is kept — an environment
 * variable or a file, never the token itself. Kept in {@code $ZOP_CONFIG}, else
 * {@code $XDG_CONFIG_HOME/zop/config.yaml}, else {@code ~/.config/zop/config.yaml} ({@code -Dzop.config} for
 * {@code ZOP_CONFIG}).
 */
final class Contexts {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** A service: its URL, and the environment variable or file its token is read from. */
  record Context(String url, String tokenEnv, String tokenFile) {
    String token() {
      if (tokenEnv != null) {
        String token = System.getenv(tokenEnv);
        if (token == null || token.isBlank()) {
          throw new IllegalArgumentException("the context's token variable " + tokenEnv + " is not set");
        }
        return token.strip();
      }
      if (tokenFile != null) {
        try {
          return Files.readString(Path.of(tokenFile)).strip();
        } catch (IOException e) {
          throw new IllegalArgumentException("cannot read the context's token file " + tokenFile + ": " + e);
        }
      }
      return null;
    }
  }

  private final Path file;

  Contexts(Path file) {
    this.file = file;
  }

  static Contexts standard(Map<String, String> environment) {
    String explicit = environment.getOrDefault("ZOP_CONFIG", System.getProperty("zop.config"));
    if (explicit != null && !explicit.isBlank()) {
      return new Contexts(Path.of(explicit));
    }
    String xdg = environment.get("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
    return new Contexts(base.resolve("zop").resolve("config.yaml"));
  }

  Path file() {
    return file;
  }

  private ObjectNode read() {
    if (!Files.exists(file)) {
      return YAML.createObjectNode();
    }
    try {
      var node = YAML.readTree(file.toFile());
      return node instanceof ObjectNode object ? object : YAML.createObjectNode();
    } catch (IOException e) {
      throw new IllegalArgumentException(file + " is not YAML: " + e.getMessage());
    }
  }

  private void write(ObjectNode config) {
    try {
      Files.createDirectories(file.getParent());
      YAML.writeValue(file.toFile(), config);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The named context, or the current one when {@code name} is null; null when there is none. */
  Context find(String name) {
    ObjectNode config = read();
    String wanted = name != null ? name : config.path("current").asText(null);
    if (wanted == null) {
      return null;
    }
    var node = config.path("contexts").path(wanted);
    if (node.isMissingNode()) {
      throw new IllegalArgumentException("no context '" + wanted + "' in " + file);
    }
    return new Context(node.path("url").asText(null), node.path("tokenEnv").asText(null),
        node.path("tokenFile").asText(null));
  }

  void set(String name, Context context) {
    ObjectNode config = read();
    ObjectNode entry = config.with("contexts").putObject(name).put("url", context.url());
    if (context.tokenEnv() != null) {
      entry.put("tokenEnv", context.tokenEnv());
    }
    if (context.tokenFile() != null) {
      entry.put("tokenFile", context.tokenFile());
    }
    if (!config.has("current")) {
      config.put("current", name);
    }
    write(config);
  }

  void use(String name) {
    ObjectNode config = read();
    if (config.path("contexts").path(name).isMissingNode()) {
      throw new IllegalArgumentException("no context '" + name + "' in " + file);
    }
    config.put("current", name);
    write(config);
  }

  Map<String, Context> all() {
    Map<String, Context> found = new TreeMap<>();
    read().path("contexts").fields().forEachRemaining(e -> found.put(e.getKey(), new Context(
        e.getValue().path("url").asText(null), e.getValue().path("tokenEnv").asText(null),
        e.getValue().path("tokenFile").asText(null))));
    return found;
  }

  String current() {
    return read().path("current").asText(null);
  }
}
