package dev.zop.provisioner;

import java.security.SecureRandom;

/** Random, URL-safe identifiers with a readable prefix. */
final class Ids {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final int LENGTH = 20;
  /** The largest multiple of the alphabet's size a byte can hold: bytes at or above it are drawn again. */
  private static final int ACCEPT_BELOW = 256 - 256 % ALPHABET.length;

  private Ids() {}

  /**
   * {@code prefix_} and 20 characters drawn uniformly from {@code [0-9a-z]} (103 bits). The bytes come in one draw
   * per id, not one per character: every draw from the shared SecureRandom takes its lock, and a submit makes ids
   * on many threads at once.
   */
  static String random(String prefix) {
    char[] out = new char[LENGTH];
    byte[] bytes = new byte[LENGTH + 4]; // 252 of 256 byte values are kept: four spare draws make a refill rare
    int filled = 0;
    while (filled < LENGTH) {
      RANDOM.nextBytes(bytes);
      for (int i = 0; i < bytes.length && filled < LENGTH; i++) {
        int value = bytes[i] & 0xFF;
        if (value < ACCEPT_BELOW) {
          out[filled++] = ALPHABET[value % ALPHABET.length];
        }
      }
    }
    return prefix + "_" + new String(out);
  }
}
