package dev.zop.provisioner.aws;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.services.eks.model.AssociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DeleteAccessEntryRequest;

/**
 * moto does not implement EKS access entries (CreateAccessEntry, AssociateAccessPolicy, DeleteAccessEntry). This
 * stands in for them: it keeps the entries and their policies from the SDK's own request objects and replaces
 * moto's answer with the one EKS gives (a 200 with the entry, 409 {@code ResourceInUseException} for an entry
 * that exists, 404 {@code ResourceNotFoundException} for one that does not), so the SDK parses real shapes.
 */
final class AccessEntryStandIn extends MotoStandIn {
  /** clusterName/principalArn → the access policies associated with the entry. */
  final Map<String, Set<String>> entries = new ConcurrentHashMap<>();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    Answer answer = null;
    if (request instanceof CreateAccessEntryRequest create) {
      String key = create.clusterName() + "/" + create.principalArn();
      answer = entries.putIfAbsent(key, ConcurrentHashMap.newKeySet()) != null
          ? Answer.jsonError(409, "ResourceInUseException", "{\"message\":\"The specified access entry resource"
              + " is already in use on this cluster.\"}")
          : Answer.json("{\"accessEntry\":{\"clusterName\":\"" + create.clusterName() + "\",\"principalArn\":\""
              + create.principalArn() + "\",\"type\":\"STANDARD\"}}");
    } else if (request instanceof AssociateAccessPolicyRequest associate) {
      Set<String> policies = entries.get(associate.clusterName() + "/" + associate.principalArn());
      if (policies == null) {
        answer = notFound();
      } else {
        policies.add(associate.policyArn() + " " + associate.accessScope().typeAsString());
        answer = Answer.json("{\"clusterName\":\"" + associate.clusterName() + "\",\"principalArn\":\""
            + associate.principalArn() + "\",\"associatedAccessPolicy\":{\"policyArn\":\"" + associate.policyArn()
            + "\",\"accessScope\":{\"type\":\"" + associate.accessScope().typeAsString() + "\"}}}");
      }
    } else if (request instanceof DeleteAccessEntryRequest delete) {
      answer = entries.remove(delete.clusterName() + "/" + delete.principalArn()) == null ? notFound()
          : Answer.json("{}");
    }
    if (answer != null) {
      answer(attributes, answer);
    }
  }

  private static Answer notFound() {
    return Answer.jsonError(404, "ResourceNotFoundException", "{\"message\":\"The specified access entry"
        + " resource could not be found.\"}");
  }
}
