package dev.zop.provisioner.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's first command, {@code Quickstart}: before it makes anything on the machine's PostgreSQL it says
 * what it will make there, and it leaves no store behind.
 */
class QuickstartTest {
  @Test
  void theTourSaysWhatItWillMakeOnTheLocalPostgresFirstAndLeavesNoStoreBehind() throws Exception {
    String out = run();
    boolean found = out.contains("PostgreSQL answers on ");
    if ("true".equals(System.getenv("CI"))) {
      assertThat(found).as("CI runs PostgreSQL on loopback (TESTING.md): " + out).isTrue();
    }
    if (found) {
      assertThat(out.indexOf("PostgreSQL answers on ")).isLessThan(out.indexOf("Store: "));
      assertThat(out).contains("creates a database checkout_<id> and a role checkout_app_<id>",
          "-Dexec.args=--no-database", "Dropped database checkout_");
    }
    assertThat(out).contains("Tearing down: cluster deleted, datastore deleted");
    Matcher store = Pattern.compile("Store: (\\S+) \\(removed at the end\\)").matcher(out);
    assertThat(store.find()).as(out).isTrue();
    assertThat(Files.exists(Path.of(store.group(1)))).as("the tour's store is removed").isFalse();
  }

  private static String run(String... args) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      Quickstart.main(args);
    } finally {
      System.setOut(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
