package dev.zop.provisioner.testkit.fakes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate for {@code IP:127.0.0.1} made for one test run (by the JDK's {@code keytool}), for fakes that
 * clients reach only over HTTPS: the server's context, a client context trusting it and nothing else new, and the
 * certificate as PEM for clients outside the JVM ({@code NODE_EXTRA_CA_CERTS}, {@code REQUESTS_CA_BUNDLE}).
 */
public final class LoopbackTls {
  private final SSLContext serverContext;
  private final SSLContext clientContext;
  private final String certificatePem;

  private LoopbackTls(SSLContext serverContext, SSLContext clientContext, String certificatePem) {
    this.serverContext = serverContext;
    this.clientContext = clientContext;
    this.certificatePem = certificatePem;
  }

  public static LoopbackTls create() {
    try {
      Path dir = Files.createTempDirectory("loopback-tls");
      Path keystore = dir.resolve("fake.p12");
      Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
          "-genkeypair", "-alias", "fake", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
          "-ext", "SAN=IP:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
          "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
      String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (keytool.waitFor() != 0) {
        throw new IllegalStateException("keytool failed: " + output);
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keystore)) {
        store.load(in, "changeit".toCharArray());
      }
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, "changeit".toCharArray());
      SSLContext server = SSLContext.getInstance("TLS");
      server.init(keys.getKeyManagers(), null, null);
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext client = SSLContext.getInstance("TLS");
      client.init(null, trust.getTrustManagers(), null);
      Certificate certificate = store.getCertificate("fake");
      String pem = "-----BEGIN CERTIFICATE-----\n"
          + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
      return new LoopbackTls(server, client, pem);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while keytool ran", e);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("cannot make the loopback certificate", e);
    }
  }

  public SSLContext serverContext() {
    return serverContext;
  }

  public SSLContext clientContext() {
    return clientContext;
  }

  public String certificatePem() {
    return certificatePem;
  }

  /** Writes the certificate as PEM to a new temporary file, for a client to trust. */
  public Path writeCertificate() {
    try {
      Path file = Files.createTempFile("loopback-ca", ".pem");
      Files.writeString(file, certificatePem);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
