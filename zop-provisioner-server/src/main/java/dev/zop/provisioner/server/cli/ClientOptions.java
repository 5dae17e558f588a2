package dev.zop.provisioner.server.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.client.ProvisionerClient;
import dev.zop.provisioner.wire.WireJson;
import picocli.CommandLine.Option;

/** Where the service is and who is calling it. */
final class ClientOptions {
  static final ObjectMapper JSON = WireJson.lenient().enable(SerializationFeature.INDENT_OUTPUT);

  @Option(names = "--url", defaultValue = "${env:ZOP_URL:-http://localhost:5087}",
      description = "the service (env ZOP_URL, default http://localhost:5087)")
  String url;

  @Option(names = "--token", defaultValue = "${env:ZOP_TOKEN}", required = true,
      description = "a bearer token from `zop tokens create` (env ZOP_TOKEN)")
  String token;

  Provisioner client() {
    return ProvisionerClient.builder().baseUrl(url).bearerToken(token).build();
  }

  static void print(Object value) {
    try {
      System.out.println(JSON.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
