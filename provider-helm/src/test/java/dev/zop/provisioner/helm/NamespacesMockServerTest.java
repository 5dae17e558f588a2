package dev.zop.provisioner.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.ValidationException;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/** Namespace logic against fabric8's CRUD mock server: fast, and enough for what it exercises. */
@EnableKubernetesMockClient(crud = true)
class NamespacesMockServerTest {
  KubernetesClient client;

  @Test
  void createdNamespacesCarryOurLabelAndOthersAreNotOurs() {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("legacy").endMetadata().build())
        .create();
    Namespace created = KubeNamespaces.create(client, "checkout-staging");
    assertThat(created.managedByZopnight()).isTrue();
    assertThat(client.namespaces().withName("checkout-staging").get().getMetadata().getLabels())
        .containsEntry(KubeNamespaces.MANAGED_LABEL, KubeNamespaces.MANAGED_VALUE);

    assertThat(KubeNamespaces.list(client)).extracting(Namespace::name, Namespace::managedByZopnight)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("checkout-staging", true),
            org.assertj.core.groups.Tuple.tuple("legacy", false));
  }

  @Test
  void ensureAdoptsWhatExistsAndCreatesWhatDoesNot() {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shared").endMetadata().build())
        .create();
    assertThat(KubeNamespaces.ensure(client, "shared")).isFalse(); // adopted, not ours, not relabelled
    assertThat(client.namespaces().withName("shared").get().getMetadata().getLabels()).isNullOrEmpty();
    assertThat(KubeNamespaces.ensure(client, "fresh")).isTrue();
    assertThat(KubeNamespaces.ensure(client, "fresh")).isTrue(); // idempotent
    assertThat(client.namespaces().list().getItems()).hasSize(2);
  }

  @Test
  void namesAreCheckedAsKubernetesDoesAndDuplicatesConflict() {
    for (String bad : new String[] {"Upper", "-dash", "dash-", "under_score", "a".repeat(64), ""}) {
      assertThatThrownBy(() -> KubeNamespaces.create(client, bad)).as(bad).isInstanceOf(ValidationException.class);
    }
    assertThat(client.namespaces().list().getItems()).isEmpty(); // the mock would have taken them
    KubeNamespaces.create(client, "once");
    assertThatThrownBy(() -> KubeNamespaces.create(client, "once"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("namespace_exists"));
  }
}
