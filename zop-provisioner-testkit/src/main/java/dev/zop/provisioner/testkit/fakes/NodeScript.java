package dev.zop.provisioner.testkit.fakes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A Node.js script run to its end, bounded in time, with what it printed (stdout and stderr together). */
public record NodeScript(boolean ended, int exit, String output) {

  /** Runs {@code node <script>} in {@code directory} with {@code environment} added; killed after {@code limit}. */
  public static NodeScript run(Path directory, String script, Map<String, String> environment, Duration limit)
      throws IOException, InterruptedException {
    Path output = Files.createTempFile("node", ".out");
    ProcessBuilder node = new ProcessBuilder("node", directory.resolve(script).toString())
        .directory(directory.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
    node.environment().putAll(environment);
    Process run = node.start();
    boolean ended = run.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    if (!ended) {
      run.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    return new NodeScript(ended, ended ? run.exitValue() : -1, Files.readString(output, StandardCharsets.UTF_8));
  }
}
