package dev.zop.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdsTest {
  private static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

  @Test
  void idsArePrefixedTwentyCharactersOfTheAlphabetAndDistinct() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 20_000; i++) {
      String id = Ids.random("job");
      assertThat(id).matches("job_[0-9a-z]{20}");
      seen.add(id);
    }
    assertThat(seen).hasSize(20_000);
  }

  /**
   * Every character is equally likely: over 40,000 ids (800,000 characters, ~22,222 of each) a chi-square statistic
   * with 35 degrees of freedom stays far below 100 (p < 1e-7 for a fair draw to exceed it). Mapping every byte with
   * {@code % 36}, without drawing again above 252, gives the first four characters 8/7 of the others' share and a
   * statistic near 1,500.
   */
  @Test
  void everyCharacterIsEquallyLikely() {
    long[] counts = new long[ALPHABET.length()];
    int ids = 40_000;
    for (int i = 0; i < ids; i++) {
      String id = Ids.random("x");
      for (int c = 2; c < id.length(); c++) {
        counts[ALPHABET.indexOf(id.charAt(c))]++;
      }
    }
    double expected = ids * 20.0 / ALPHABET.length();
    double chiSquare = 0;
    for (long count : counts) {
      chiSquare += (count - expected) * (count - expected) / expected;
    }
    assertThat(chiSquare).isLessThan(100);
  }
}
