package dev.zop.provisioner.aws;

import static org.awaitility.Awaitility.await;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.core.ConditionTimeoutException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * A moto server (the AWS emulator on this machine) on a free loopback port, started once per test JVM and
 * stopped when it exits. Missing moto fails the test: these tests must run, not skip.
 */
public final class MotoServer {
  private static MotoServer instance;

  private final String endpoint;
  private final HttpClient http = HttpClient.newHttpClient();

  private MotoServer(String endpoint) {
    this.endpoint = endpoint;
  }

  public static synchronized MotoServer get() {
    if (instance == null) {
      instance = start();
    }
    return instance;
  }

  public String endpoint() {
    return endpoint;
  }

  /** A client of this moto server in us-east-1 (moto takes global services there too): a test's view of it. */
  <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C client(B builder) {
    return builder.endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
        .httpClient(UrlConnectionHttpClient.create()).build();
  }

  /**
   * What moto holds, read with boto3 (AWS's own Python SDK, not ours): {@code script} runs with {@code boto3},
   * {@code json} and {@code kw} (the endpoint, region and credentials for a client) in scope and prints JSON.
   */
  public String boto3(String script) {
    try {
      Process python = new ProcessBuilder("python3", "-c", """
          import boto3, json, sys
          kw = dict(endpoint_url=sys.argv[1], region_name="us-east-1", aws_access_key_id="testing",
                    aws_secret_access_key="testing")
          """ + script, endpoint).redirectErrorStream(true).start();
      String out = new String(python.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (!python.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || python.exitValue() != 0) {
        throw new IllegalStateException("boto3 failed: " + out);
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException("python3 with boto3 is needed to read moto's state", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Forgets every resource, as a fresh server would have none. */
  public void reset() {
    post("/moto-api/reset", "");
    post("/moto-api/reset-auth", "inf");
  }

  /** From the next request on, moto checks IAM policies; the test's credentials have none, so all is denied. */
  void enforceIam() {
    post("/moto-api/reset-auth", "0");
  }

  void stopEnforcingIam() {
    post("/moto-api/reset-auth", "inf");
  }

  private void post(String path, String body) {
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(endpoint + path))
          .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("moto " + path + " answered " + response.statusCode());
      }
    } catch (IOException e) {
      throw new IllegalStateException("moto " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static MotoServer start() {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
    Process process;
    try {
      Path log = Files.createTempFile("moto", ".log");
      ProcessBuilder builder = new ProcessBuilder("moto_server", "-H", "127.0.0.1", "-p", String.valueOf(port))
          .redirectErrorStream(true).redirectOutput(log.toFile());
      // AWS-managed IAM policies (AmazonEKSClusterPolicy, ...) exist only when moto is asked to load them
      builder.environment().put("MOTO_IAM_LOAD_MANAGED_POLICIES", "true");
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("moto_server is not installed or not on the PATH (Debian: python3-moto); the"
          + " AWS provider's integration tests need it", e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
    MotoServer server = new MotoServer("http://127.0.0.1:" + port);
    try {
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptionsInstanceOf(IOException.class).until(() -> {
            if (!process.isAlive()) {
              throw new IllegalStateException("moto_server exited with " + process.exitValue());
            }
            return server.http.send(HttpRequest.newBuilder(URI.create(server.endpoint + "/moto-api/data.json"))
                .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
          });
      return server;
    } catch (ConditionTimeoutException e) {
      process.destroy();
      throw new IllegalStateException("moto_server did not answer on port " + port + " within 30 s", e);
    }
  }
}
