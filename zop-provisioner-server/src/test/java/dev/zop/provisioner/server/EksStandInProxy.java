package dev.zop.provisioner.server;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.HttpHeaders;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.jetty12.Jetty12HttpServerFactory;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * WireMock in front of moto, for the EKS operations moto does not implement, and nothing else: every request is
 * proxied to moto as it came, except UpdateClusterVersion, UpdateNodegroupVersion and the access-entry calls
 * (CreateAccessEntry, AssociateAccessPolicy, DeleteAccessEntry), which are answered here in EKS's shapes. Once a
 * version update was asked for, moto's DescribeCluster and DescribeNodegroup answers carry the new version, as EKS
 * shows it when the update is done. WireMock's request journal keeps what the SDK sent.
 */
final class EksStandInProxy implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String UPDATE_CLUSTER_VERSION = "/clusters/[^/]+/updates";
  static final String UPDATE_NODEGROUP_VERSION = "/clusters/[^/]+/node-groups/[^/]+/update-version";
  private static final String ACCESS_ENTRIES = "/clusters/[^/]+/access-entries";
  private static final String ACCESS_POLICIES = "/clusters/[^/]+/access-entries/[^/]+/access-policies";

  private final WireMockServer server;

  EksStandInProxy(String moto) {
    server = new WireMockServer(WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1")
        .httpServerFactory(new Jetty12HttpServerFactory()).extensions(new Answers()));
    server.start();
    server.stubFor(any(anyUrl()).atPriority(10).willReturn(aResponse().proxiedFrom(moto)));
    // answered here: the transformer writes each body
    for (String path : List.of(UPDATE_CLUSTER_VERSION, UPDATE_NODEGROUP_VERSION, ACCESS_ENTRIES, ACCESS_POLICIES)) {
      server.stubFor(post(urlPathMatching(path)).atPriority(1).willReturn(aResponse().withStatus(200)));
    }
    server.stubFor(delete(urlPathMatching(ACCESS_ENTRIES + "/[^/]+")).atPriority(1)
        .willReturn(aResponse().withStatus(200)));
  }

  /** The endpoint the AWS account is given in place of moto's. */
  String endpoint() {
    return server.baseUrl();
  }

  /** The requests the SDK sent to {@code pathPattern}, in order. */
  List<LoggedRequest> requests(String pathPattern) {
    return server.findAll(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
        urlPathMatching(pathPattern)));
  }

  @Override
  public void close() {
    server.stop();
  }

  /** Writes the stand-in answers and gives moto's descriptions the versions asked for. */
  private static final class Answers implements ResponseTransformerV2 {
    private static final Pattern CLUSTER = Pattern.compile("/clusters/([^/]+)");
    private static final Pattern NODEGROUP = Pattern.compile("/clusters/([^/]+)/node-groups/([^/]+)");
    /** cluster, or cluster/nodegroup → the version an update asked for. */
    private final Map<String, String> versions = new ConcurrentHashMap<>();

    @Override
    public String getName() {
      return "eks-stand-in";
    }

    @Override
    public Response transform(Response response, ServeEvent event) {
      Request request = event.getRequest();
      String path = URI.create(request.getUrl()).getRawPath();
      String method = request.getMethod().value();
      try {
        if (method.equals("POST") && path.matches(UPDATE_CLUSTER_VERSION)) {
          String cluster = segment(path, 2);
          String version = JSON.readTree(request.getBodyAsString()).path("version").asText();
          versions.put(cluster, version);
          return json(response, update(version));
        }
        if (method.equals("POST") && path.matches(UPDATE_NODEGROUP_VERSION)) {
          String version = JSON.readTree(request.getBodyAsString()).path("version").asText();
          versions.put(segment(path, 2) + "/" + segment(path, 4), version);
          return json(response, update(version));
        }
        if (method.equals("POST") && path.matches(ACCESS_POLICIES)) {
          JsonNode body = JSON.readTree(request.getBodyAsString());
          ObjectNode answer = JSON.createObjectNode().put("clusterName", segment(path, 2))
              .put("principalArn", segment(path, 4));
          answer.putObject("associatedAccessPolicy").put("policyArn", body.path("policyArn").asText())
              .put("associatedAt", now()).put("modifiedAt", now()).set("accessScope", body.path("accessScope"));
          return json(response, answer);
        }
        if (method.equals("POST") && path.matches(ACCESS_ENTRIES)) {
          JsonNode body = JSON.readTree(request.getBodyAsString());
          ObjectNode answer = JSON.createObjectNode();
          answer.putObject("accessEntry").put("clusterName", segment(path, 2))
              .put("principalArn", body.path("principalArn").asText())
              .put("type", body.path("type").asText("STANDARD")).put("createdAt", now()).put("modifiedAt", now());
          return json(response, answer);
        }
        if (method.equals("DELETE") && path.matches(ACCESS_ENTRIES + "/[^/]+")) {
          return json(response, JSON.createObjectNode());
        }
        Matcher group = NODEGROUP.matcher(path);
        if (method.equals("GET") && group.matches() && response.getStatus() == 200) {
          return withVersion(response, "nodegroup", versions.get(group.group(1) + "/" + group.group(2)));
        }
        Matcher cluster = CLUSTER.matcher(path);
        if (method.equals("GET") && cluster.matches() && response.getStatus() == 200) {
          return withVersion(response, "cluster", versions.get(cluster.group(1)));
        }
        return response;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String segment(String path, int index) {
      return URLDecoder.decode(path.split("/")[index], StandardCharsets.UTF_8);
    }

    private static double now() {
      return System.currentTimeMillis() / 1000.0;
    }

    private static ObjectNode update(String version) {
      ObjectNode answer = JSON.createObjectNode();
      ObjectNode update = answer.putObject("update").put("id", UUID.randomUUID().toString())
          .put("status", "InProgress").put("type", "VersionUpdate").put("createdAt", now());
      update.putArray("params").addObject().put("type", "Version").put("value", version);
      update.putArray("errors");
      return answer;
    }

    private static Response withVersion(Response response, String field, String version) throws IOException {
      if (version == null) {
        return response;
      }
      JsonNode body = JSON.readTree(response.getBodyAsString());
      ((ObjectNode) body.path(field)).put("version", version);
      return json(response, body);
    }

    private static Response json(Response response, JsonNode body) throws IOException {
      return Response.Builder.like(response).but().status(200).headers(new HttpHeaders(
          new HttpHeader("Content-Type", "application/json"))).body(JSON.writeValueAsBytes(body)).build();
    }
  }
}
