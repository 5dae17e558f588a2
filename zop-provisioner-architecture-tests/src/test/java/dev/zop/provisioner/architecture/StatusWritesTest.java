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
 * that sets the status column of {@code provisioning_jobs}; and, since a job's steps are stored together on its row
 * as they are held in memory, for code that makes a step with a status of its own choosing, outside the step's
 * type, the codec that reads it back and {@code StatusTransitions}.
 */
class StatusWritesTest {
  /** An update that sets the status, or a SET clause built apart from its statement that begins with it. */
  private static final Pattern STATUS_WRITE = Pattern.compile(
      "UPDATE\\s+provisioning_jobs\\s+SET\\s+[^\"]*?\\bstatus\\s*=|\"\\s*status\\s*=\\s*\\?",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern STEP_MADE = Pattern.compile("new\\s+StepRecord\\s*\\(");
  private static final Pattern JOINED_LITERALS = Pattern.compile("\"\\s*\\+\\s*\"");

  @Test
  void onlyTheTransitionDoorWritesAJobOrStepStatus() throws IOException {
    Map<String, Integer> writers = found(STATUS_WRITE);
    // the door itself must be found, or this check could not fail
    assertThat(writers).containsKey("StatusTransitions.java");
    assertThat(writers.keySet()).as("files that write a job status").isEqualTo(
        new java.util.TreeSet<>(List.of("StatusTransitions.java")));
  }

  @Test
  void onlyTheTransitionDoorMakesAStepWithAnotherStatus() throws IOException {
    Map<String, Integer> makers = found(STEP_MADE);
    assertThat(makers).containsKey("StatusTransitions.java");
    assertThat(makers.keySet()).as("files that make a step").isEqualTo(
        new java.util.TreeSet<>(List.of("StatusTransitions.java", "StepRecord.java", "StoredSteps.java")));
  }

  /** Files of every module's main sources where {@code pattern} is found, with how often. */
  private static Map<String, Integer> found(Pattern pattern) throws IOException {
    Map<String, Integer> writers = new TreeMap<>();
    try (Stream<Path> modules = Files.list(Path.of(".."))) {
      for (Path source : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(source)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
            String code = JOINED_LITERALS.matcher(read(file)).replaceAll("");
            Matcher m = pattern.matcher(code);
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
    return writers;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
