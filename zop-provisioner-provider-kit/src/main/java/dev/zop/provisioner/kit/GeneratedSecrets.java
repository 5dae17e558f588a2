package dev.zop.provisioner.kit;

import java.security.SecureRandom;

/**
 * Secrets a provider generates for what it makes (a database's admin password, a cache's AUTH token): 32
 * characters from an alphabet every engine and shell accepts unquoted, without look-alikes (no 0/O, 1/l/I).
 */
public final class GeneratedSecrets {
  private static final char[] ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private GeneratedSecrets() {}

  public static String password() {
    char[] out = new char[32];
    for (int i = 0; i < out.length; i++) {
      out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return new String(out);
  }
}
