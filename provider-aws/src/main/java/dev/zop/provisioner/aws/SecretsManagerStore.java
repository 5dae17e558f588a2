package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.spi.SecretStore;
import java.util.NoSuchElementException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceExistsException;

/** Secrets in AWS Secrets Manager; a reference is the secret's ARN. */
final class SecretsManagerStore implements SecretStore {
  private final SecretsManagerClient client;

  SecretsManagerStore(SecretsManagerClient client) {
    this.client = client;
  }

  @Override
  public String id() {
    return "aws-secrets-manager";
  }

  @Override
  public SecretRef put(String name, String value) {
    try {
      return SecretRef.of(CALLS.call(SECRETS_CREATE_SECRET,
          () -> client.createSecret(r -> r.name(name).secretString(value)
              .tags(t -> t.key("managed-by").value("zop-provisioner")))).arn());
    } catch (CloudCallException e) {
      if (!(e.getCause() instanceof ResourceExistsException)) {
        throw e;
      }
      return SecretRef.of(CALLS.call(SECRETS_PUT_SECRET_VALUE,
          () -> client.putSecretValue(r -> r.secretId(name).secretString(value))).arn());
    }
  }

  @Override
  public String get(SecretRef ref) {
    var found = CALLS.findOrNull(SECRETS_GET_SECRET_VALUE, () -> client.getSecretValue(r -> r.secretId(ref.value())));
    if (found == null) {
      throw new NoSuchElementException("no secret " + ref);
    }
    return found.secretString();
  }

  @Override
  public SecretRef rotate(SecretRef ref, String newValue) {
    get(ref);
    CALLS.call(SECRETS_PUT_SECRET_VALUE,
        () -> client.putSecretValue(r -> r.secretId(ref.value()).secretString(newValue)));
    return ref;
  }

  @Override
  public void delete(SecretRef ref) {
    CALLS.deleteIfExists(SECRETS_DELETE_SECRET,
        () -> client.deleteSecret(r -> r.secretId(ref.value()).forceDeleteWithoutRecovery(true)));
  }
}
