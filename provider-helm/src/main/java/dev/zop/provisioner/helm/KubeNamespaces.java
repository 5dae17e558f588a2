package dev.zop.provisioner.helm;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.ValidationException;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/** Namespaces through fabric8, with a client built for one kubeconfig and closed after each call. */
final class KubeNamespaces {
  static final String MANAGED_LABEL = "zop.dev/managed-by";
  static final String MANAGED_VALUE = "zopnight";
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  private KubeNamespaces() {}

  static <T> T withClient(String kubeconfig, Function<KubernetesClient, T> work) {
    Config config = Config.fromKubeconfig(kubeconfig);
    config.setRequestTimeout(30_000);
    config.setConnectionTimeout(10_000);
    config.setRequestRetryBackoffLimit(1); // the engine retries transient failures with its own backoff
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      return work.apply(client);
    }
  }

  static List<Namespace> list(KubernetesClient client) {
    return client.namespaces().list().getItems().stream()
        .map(ns -> view(ns.getMetadata()))
        .sorted(Comparator.comparing(Namespace::name))
        .toList();
  }

  static void checkName(String name) {
    if (name == null || !DNS_LABEL.matcher(name).matches()) {
      throw ValidationException.of("name", "invalid_name", "a namespace name is a DNS-1123 label: lower-case "
          + "letters, digits and '-', starting and ending with a letter or digit, at most 63 characters");
    }
  }

  /** Creates the namespace with our label; one that exists already is a conflict. */
  static Namespace create(KubernetesClient client, String name) {
    checkName(name);
    try {
      return view(client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
          .withLabels(Map.of(MANAGED_LABEL, MANAGED_VALUE)).endMetadata().build()).create().getMetadata());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        throw new ConflictException("namespace_exists", "namespace " + name + " exists already");
      }
      throw e;
    }
  }

  /** The namespace as it is, creating it (labelled) when it is missing; returns whether we manage it. */
  static boolean ensure(KubernetesClient client, String name) {
    io.fabric8.kubernetes.api.model.Namespace found = client.namespaces().withName(name).get();
    if (found != null) {
      return isOurs(found.getMetadata());
    }
    try {
      create(client, name);
      return true;
    } catch (ConflictException raced) {
      return isOurs(client.namespaces().withName(name).get().getMetadata());
    }
  }

  private static boolean isOurs(ObjectMeta meta) {
    return meta.getLabels() != null && MANAGED_VALUE.equals(meta.getLabels().get(MANAGED_LABEL));
  }

  private static Namespace view(ObjectMeta meta) {
    boolean ours = isOurs(meta);
    Instant created = ours && meta.getCreationTimestamp() != null ? Instant.parse(meta.getCreationTimestamp())
        : null;
    return new Namespace(meta.getName(), ours, created);
  }
}
