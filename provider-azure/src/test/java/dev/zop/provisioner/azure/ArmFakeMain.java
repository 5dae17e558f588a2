package dev.zop.provisioner.azure;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts {@link ArmFake} with every resource type the Azure provider makes, for a person or another team's tools
 * to point at:
 *
 * <pre>java -cp provider-azure-tests.jar:... dev.zop.provisioner.azure.ArmFakeMain [operationPolls]</pre>
 *
 * <p>It writes the certificate it serves HTTPS with, then prints one JSON line with its endpoint (Resource
 * Manager's, the Key Vault's and the sign-in authority's), the certificate file, a service principal's tenant, id
 * and secret (its client-credentials grant gets the bearer token the fake accepts) and that token, and serves
 * until its standard input closes.
 */
public final class ArmFakeMain {
  private ArmFakeMain() {}

  public static void main(String[] args) throws Exception {
    try (ArmFake fake = start(args.length > 0 ? Integer.parseInt(args[0]) : 2)) {
      System.out.println(describe(fake, Files.createTempDirectory("arm-fake")));
      System.out.flush();
      while (System.in.read() >= 0) {
        // nothing to read: the stream only says when to stop
      }
    }
  }

  static ArmFake start(int operationPolls) {
    ArmFake fake = ArmFake.forTheAzureProvider();
    fake.operationPolls(operationPolls);
    return fake;
  }

  /** Writes the certificate under {@code dir} and describes the fake as JSON. */
  static String describe(ArmFake fake, Path dir) throws IOException {
    Path caFile = dir.resolve("ca.pem");
    Files.writeString(caFile, fake.certificatePem());
    return new ObjectMapper().createObjectNode().put("endpoint", fake.endpoint()).put("token", ArmFake.TOKEN)
        .put("caFile", caFile.toString()).put("subscription", "00000000-0000-0000-0000-0000000000a1")
        .put("tenant", "00000000-0000-0000-0000-0000000000aa").put("clientId", ArmFake.CLIENT_ID)
        .put("clientSecret", ArmFake.CLIENT_SECRET).put("authorityHost", fake.endpoint()).toString();
  }
}
