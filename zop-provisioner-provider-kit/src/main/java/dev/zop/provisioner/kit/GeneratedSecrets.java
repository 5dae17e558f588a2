package dev.zop.provisioner.kit;

import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.StepContext;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Secrets a provider generates for what it makes (a database's admin password, a cache's AUTH token, a VM pool's
 * SSH key). Passwords are 32 characters from an alphabet every engine and shell accepts unquoted, without
 * look-alikes (no 0/O, 1/l/I).
 */
public final class GeneratedSecrets {
  private static final char[] ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String PEM_BEGIN = "-----BEGIN PRIVATE KEY-----";
  private static final String PEM_END = "-----END PRIVATE KEY-----";

  private GeneratedSecrets() {}

  /**
   * The password recorded under {@code key} by an earlier attempt, or a new one put into the job's secret store
   * under {@code name}: the reference to record under {@code key}. A name derived from the job makes a second put
   * after a crash replace the first, so nothing is left behind.
   */
  public static SecretRef passwordFor(StepContext ctx, OutputKey<SecretRef> key, String name) {
    SecretRef existing = ctx.outputs().get(key);
    return existing != null ? existing : ctx.secrets().put(name, password());
  }

  public static String password() {
    char[] out = new char[32];
    for (int i = 0; i < out.length; i++) {
      out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return new String(out);
  }

  /**
   * A new 3072-bit RSA key for SSH logins, as PKCS#8 PEM ({@code ssh -i} and OpenSSH read it). Only the private
   * key is kept: its public half is derived from it with {@link #sshPublicKey}, so a resumed step that finds the
   * key already stored puts the same public key on the machines.
   */
  public static String sshPrivateKey() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(3072, RANDOM);
      byte[] der = generator.generateKeyPair().getPrivate().getEncoded();
      return PEM_BEGIN + "\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n" + PEM_END
          + "\n";
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM cannot make RSA keys", e);
    }
  }

  /** The OpenSSH public key line ({@code ssh-rsa AAAA... comment}) of a key from {@link #sshPrivateKey}. */
  public static String sshPublicKey(String privateKeyPem, String comment) {
    String base64 = privateKeyPem.replace(PEM_BEGIN, "").replace(PEM_END, "").replaceAll("\\s", "");
    try {
      RSAPrivateCrtKey key = (RSAPrivateCrtKey) KeyFactory.getInstance("RSA")
          .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        // RFC 4253 6.6: string "ssh-rsa", mpint e, mpint n
        writeString(out, "ssh-rsa".getBytes(StandardCharsets.US_ASCII));
        writeMpint(out, key.getPublicExponent());
        writeMpint(out, key.getModulus());
      }
      return "ssh-rsa " + Base64.getEncoder().encodeToString(bytes.toByteArray())
          + (comment == null || comment.isBlank() ? "" : " " + comment);
    } catch (GeneralSecurityException | ClassCastException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an RSA private key in PKCS#8 PEM", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeMpint(DataOutputStream out, BigInteger value) throws IOException {
    // two's complement, big-endian, with the leading zero a positive number needs: mpint's own encoding
    writeString(out, value.toByteArray());
  }

  private static void writeString(DataOutputStream out, byte[] value) throws IOException {
    out.writeInt(value.length);
    out.write(value);
  }
}
