package dev.zop.provisioner.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A job's or a step's status is written in one place, {@code StatusTransitions}: there the transition table is
 * checked, the update is guarded by the status the caller saw, and the change is appended to the history. This
 * reads the SQL in every module's sources (string literals joined as the compiler joins them) for a statement
 * that sets a status column of {@code provisioning_jobs} or {@code job_steps}.
 */
class StatusWritesTest {
  private static final Pattern STATUS_WRITE = Pattern.compile(
      "UPDATE\\s+(provisioning_jobs|job_steps)\\s+SET\\s+[^\"]*?\\bstatus\\s*=", Pattern.CASE_INSENSITIVE);
  private static final Pattern JOINED_LITERALS = Pattern.compile("\"\\s*\\+\\s*\"");

  @Test
  void onlyTheTransitionDoorWritesAJobOrStepStatus() throws IOException {
    Map<String, Integer> writers = new TreeMap<>();
    try (Stream<Path> modules = Files.list(Path.of(".."))) {
      for (Path source : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(source)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
            String code = JOINED_LITERALS.matcher(read(file)).replaceAll("");
            Matcher m = STATUS_WRITE.matcher(code);
            int count = 0;
            while (m.find()) {
              count++;
            }
            if (count > 0) {
              writers.put(file.getFileName().toString(), count);
            }
          }
        }
      }
    }
    // the door itself must be found, or this check could not fail
    assertThat(writers).containsKey("StatusTransitions.java");
    assertThat(writers.keySet()).as("files that write a job or step status").isEqualTo(
        new java.util.TreeSet<>(List.of("StatusTransitions.java")));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
