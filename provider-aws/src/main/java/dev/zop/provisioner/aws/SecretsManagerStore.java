package dev.zop.provisioner.aws;

import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.spi.SecretStore;
import java.util.NoSuchElementException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceExistsException;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;

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
      return SecretRef.of(AwsErrors.call("secretsmanager:CreateSecret",
          () -> client.createSecret(r -> r.name(name).secretString(value)
              .tags(t -> t.key("managed-by").value("zop-provisioner")))).arn());
    } catch (AwsActionException e) {
      if (!(e.getCause() instanceof ResourceExistsException)) {
        throw e;
      }
      return SecretRef.of(AwsErrors.call("secretsmanager:PutSecretValue",
          () -> client.putSecretValue(r -> r.secretId(name).secretString(value))).arn());
    }
  }

  @Override
  public String get(SecretRef ref) {
    try {
      return AwsErrors.call("secretsmanager:GetSecretValue",
          () -> client.getSecretValue(r -> r.secretId(ref.value()))).secretString();
    } catch (AwsActionException e) {
      if (e.getCause() instanceof ResourceNotFoundException) {
        throw new NoSuchElementException("no secret " + ref);
      }
      throw e;
    }
  }

  @Override
  public SecretRef rotate(SecretRef ref, String newValue) {
    get(ref);
    AwsErrors.call("secretsmanager:PutSecretValue",
        () -> client.putSecretValue(r -> r.secretId(ref.value()).secretString(newValue)));
    return ref;
  }

  @Override
  public void delete(SecretRef ref) {
    try {
      AwsErrors.call("secretsmanager:DeleteSecret",
          () -> client.deleteSecret(r -> r.secretId(ref.value()).forceDeleteWithoutRecovery(true)));
    } catch (AwsActionException e) {
      if (!(e.getCause() instanceof ResourceNotFoundException)) {
        throw e;
      }
    }
  }
}
