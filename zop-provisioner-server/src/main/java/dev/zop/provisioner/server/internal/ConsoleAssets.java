package dev.zop.provisioner.server.internal;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web console's files, served under {@code /ui} from the jar: plain HTML, CSS and JavaScript modules that call the
 * same REST API with the token the user pastes. The page itself holds no data, so it is served without a token.
 */
public final class ConsoleAssets {
  private static final String ROOT = "/dev/zop/provisioner/server/console/";
  /** Only flat, lower-case names: a request can never climb out of the console's folder. */
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*\\.(html|css|js|svg)");
  private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
      "css", "text/css; charset=utf-8", "js", "text/javascript; charset=utf-8", "svg", "image/svg+xml");
  /**
   * Everything from this origin and nothing from anywhere else: the console makes no third-party request, and
   * a message from the API is never run as script (the pages set text, never markup).
   */
  private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
      + " connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

  private final Map<String, byte[]> files = new ConcurrentHashMap<>();

  public void index(Context ctx) {
    serve(ctx, "index.html");
  }

  public void file(Context ctx) {
    serve(ctx, ctx.pathParam("file"));
  }

  private void serve(Context ctx, String name) {
    Optional<byte[]> body = NAME.matcher(name).matches() ? file(name) : Optional.empty();
    if (body.isEmpty()) {
      ctx.status(404).contentType("text/plain; charset=utf-8").result("no such file in the console: " + name);
      return;
    }
    ctx.header("Content-Security-Policy", POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    // the files change with the jar, and a stale module beside a fresh one would break the page
    ctx.header("Cache-Control", "no-cache");
    ctx.contentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1))).result(body.get());
  }

  /** Files found are kept; names not found are not, so requests for made-up names cannot grow the map. */
  private Optional<byte[]> file(String name) {
    byte[] cached = files.get(name);
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<byte[]> read = read(name);
    read.ifPresent(body -> files.put(name, body));
    return read;
  }

  private static Optional<byte[]> read(String name) {
    try (InputStream in = ConsoleAssets.class.getResourceAsStream(ROOT + name)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the console's " + name, e);
    }
  }
}
