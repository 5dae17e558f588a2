package dev.zop.provisioner.gcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Starts {@link GcpFake} with every API it serves, for a person or another team's tools to point at:
 *
 * <pre>java -cp provider-gcp-tests.jar:... dev.zop.provisioner.gcp.GcpFakeMain [project] [operationPolls]</pre>
 *
 * <p>It writes a service-account key whose {@code token_uri} is the fake's token endpoint (the fake trusts the key
 * for token grants and for self-signed JWTs) and the HTTPS certificate, then prints one JSON line naming them with
 * each API's HTTP and HTTPS endpoint, and serves until its standard input closes.
 */
public final class GcpFakeMain {
  private GcpFakeMain() {}

  public static void main(String[] args) throws Exception {
    String project = args.length > 0 ? args[0] : "fake-project";
    int polls = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    try (GcpFake fake = start(polls)) {
      System.out.println(describe(fake, project, Files.createTempDirectory("gcp-fake")));
      System.out.flush();
      // serves until whoever started it closes our standard input (or kills us)
      while (System.in.read() >= 0) {
        // nothing to read: the stream only says when to stop
      }
    }
  }

  static GcpFake start(int operationPolls) {
    GcpFake fake = new GcpFake(GcpFake.COMPUTE, GcpFake.ARTIFACT_REGISTRY, GcpFake.SECRET_MANAGER,
        GcpFake.CONTAINER, GcpFake.REDIS, GcpFake.CLOUD_SQL, GcpFake.CLOUD_DNS);
    fake.operationPolls(operationPolls);
    return fake;
  }

  /**
   * Writes a trusted service-account key and the HTTPS certificate under {@code dir} and describes the fake as
   * JSON: {@code project}, {@code keyFile}, {@code caFile}, {@code tokenUri}, {@code http} and {@code https}
   * endpoints by API name.
   */
  static String describe(GcpFake fake, String project, Path dir) throws IOException {
    KeyPair key;
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      key = generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    fake.trustServiceAccountKey(key.getPublic());
    ObjectMapper json = new ObjectMapper();
    ObjectNode account = json.createObjectNode().put("type", "service_account").put("project_id", project)
        .put("private_key_id", "fake-key").put("private_key", "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n")
        .put("client_email", "fake@" + project + ".iam.gserviceaccount.com").put("client_id", "1")
        .put("token_uri", fake.tokenUri());
    Path keyFile = dir.resolve("service-account.json");
    Files.writeString(keyFile, json.writeValueAsString(account));
    Path caFile = dir.resolve("ca.pem");
    Files.writeString(caFile, fake.certificatePem());
    ObjectNode described = json.createObjectNode().put("project", project)
        .put("keyFile", keyFile.toString()).put("caFile", caFile.toString()).put("tokenUri", fake.tokenUri());
    ObjectNode http = described.putObject("http");
    fake.endpoints().forEach((name, url) -> http.put(name.substring("endpoint.".length()), url));
    ObjectNode https = described.putObject("https");
    fake.secureEndpoints().forEach(https::put);
    return json.writeValueAsString(described);
  }
}
