package dev.zop.provisioner.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Instants are written as {@link DateTimeFormatter#ISO_INSTANT} writes them, and read back as they were. */
class InstantWriterTest {
  private final ObjectMapper json = WireJson.strict();

  @Test
  void everyInstantIsWrittenAsTheIsoFormatterWritesIt() throws Exception {
    SplittableRandom random = new SplittableRandom(20261203);
    long min = Instant.parse("-0001-01-01T00:00:00Z").getEpochSecond();
    long max = Instant.parse("+10001-01-01T00:00:00Z").getEpochSecond();
    for (int i = 0; i < 200_000; i++) {
      long second = random.nextLong(min, max);
      int nanos = switch (i % 4) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1_000;
        default -> random.nextInt(1_000_000_000);
      };
      check(Instant.ofEpochSecond(second, nanos));
    }
  }

  @Test
  void edgesOfTheDayTheYearAndTheFourDigitRange() throws Exception {
    for (String text : new String[] {"1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z",
        "2024-02-29T12:00:00.000001Z", "2026-12-03T06:11:35.964041Z", "2026-12-03T06:11:35.100Z",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "+10000-01-01T00:00:00Z",
        "-0001-12-31T23:59:59Z"}) {
      check(Instant.parse(text));
    }
    check(Instant.MIN);
    check(Instant.MAX);
  }

  private void check(Instant instant) throws Exception {
    String expected = DateTimeFormatter.ISO_INSTANT.format(instant);
    String written = json.writeValueAsString(instant);
    assertThat(written).as("%s", expected).isEqualTo('"' + expected + '"');
    assertThat(json.readValue(written, Instant.class)).isEqualTo(instant);
  }
}
