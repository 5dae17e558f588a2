package dev.zop.provisioner;

import java.security.SecureRandom;

/** Random, URL-safe identifiers with a readable prefix. */
final class Ids {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();

  private Ids() {}

  static String random(String prefix) {
    char[] out = new char[20];
    for (int i = 0; i < out.length; i++) {
      out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return prefix + "_" + new String(out);
  }
}
