package dev.zop.provisioner.aws;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.eks.model.AssociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DeleteAccessEntryRequest;

/**
 * moto does not implement EKS access entries (CreateAccessEntry, AssociateAccessPolicy, DeleteAccessEntry). This
 * stands in for them: it keeps the entries and their policies from the SDK's own request objects and replaces
 * moto's answer with the one EKS gives (a 200 with the entry, 409 {@code ResourceInUseException} for an entry
 * that exists, 404 {@code ResourceNotFoundException} for one that does not), so the SDK parses real shapes.
 */
final class AccessEntryStandIn implements ExecutionInterceptor {
  private static final ExecutionAttribute<String[]> ANSWER = new ExecutionAttribute<>("zop.accessEntryAnswer");

  /** clusterName/principalArn → the access policies associated with the entry. */
  final Map<String, Set<String>> entries = new ConcurrentHashMap<>();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    String[] answer = null;
    if (request instanceof CreateAccessEntryRequest create) {
      String key = create.clusterName() + "/" + create.principalArn();
      answer = entries.putIfAbsent(key, ConcurrentHashMap.newKeySet()) != null
          ? new String[] {"409", "ResourceInUseException", "{\"message\":\"The specified access entry resource is "
              + "already in use on this cluster.\"}"}
          : new String[] {"200", null, "{\"accessEntry\":{\"clusterName\":\"" + create.clusterName()
              + "\",\"principalArn\":\"" + create.principalArn() + "\",\"type\":\"STANDARD\"}}"};
    } else if (request instanceof AssociateAccessPolicyRequest associate) {
      Set<String> policies = entries.get(associate.clusterName() + "/" + associate.principalArn());
      if (policies == null) {
        answer = notFound();
      } else {
        policies.add(associate.policyArn() + " " + associate.accessScope().typeAsString());
        answer = new String[] {"200", null, "{\"clusterName\":\"" + associate.clusterName() + "\",\"principalArn\":\""
            + associate.principalArn() + "\",\"associatedAccessPolicy\":{\"policyArn\":\"" + associate.policyArn()
            + "\",\"accessScope\":{\"type\":\"" + associate.accessScope().typeAsString() + "\"}}}"};
      }
    } else if (request instanceof DeleteAccessEntryRequest delete) {
      answer = entries.remove(delete.clusterName() + "/" + delete.principalArn()) == null ? notFound()
          : new String[] {"200", null, "{}"};
    }
    if (answer != null) {
      attributes.putAttribute(ANSWER, answer);
    }
  }

  private static String[] notFound() {
    return new String[] {"404", "ResourceNotFoundException", "{\"message\":\"The specified access entry resource "
        + "could not be found.\"}"};
  }

  @Override
  public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    String[] answer = attributes.getAttribute(ANSWER);
    if (answer == null) {
      return context.httpResponse();
    }
    SdkHttpResponse.Builder response = SdkHttpResponse.builder().statusCode(Integer.parseInt(answer[0]))
        .putHeader("Content-Type", "application/json");
    if (answer[1] != null) {
      response.putHeader("x-amzn-ErrorType", answer[1]);
    }
    return response.build();
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
      ExecutionAttributes attributes) {
    String[] answer = attributes.getAttribute(ANSWER);
    return answer == null ? context.responseBody()
        : Optional.of(new ByteArrayInputStream(answer[2].getBytes(StandardCharsets.UTF_8)));
  }
}
