package dev.zop.provisioner.cli;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Provisioner;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "accounts", mixinStandardHelpOptions = true,
    description = "Cloud accounts: where credentials come from (a reference, never the credentials) and settings.",
    subcommands = {AccountsCommand.ListAccounts.class, AccountsCommand.Get.class, AccountsCommand.Create.class})
final class AccountsCommand {
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the organisation's cloud accounts.")
  static final class ListAccounts implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.accounts().list());
      }
      return 0;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Show one cloud account.")
  static final class Get implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "ACCOUNT_ID", description = "the account's id (ca_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.accounts().get(CloudAccountId.of(id)));
      }
      return 0;
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Add a cloud account; its id (ca_...) is what spaces name in --account.")
  static final class Create implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = "--provider", required = true, description = "aws, gcp, azure, or sim (the simulated cloud)")
    String provider;

    @Option(names = "--name", required = true, description = "the account's name, unique in the organisation")
    String name;

    @Option(names = "--credentials-ref",
        description = "where credentials come from, e.g. default-chain, profile:<name>, role:<arn>, adc, file:<key>,"
            + " env:<PREFIX> (the provider's README section lists them)")
    String credentialsRef;

    @Option(names = "--property", description = "a setting, e.g. --property region=us-east-1 --property"
        + " projectId=acme-prod")
    Map<String, String> properties = Map.of();

    @Override
    public Integer call() {
      CloudAccountRequest request = CloudAccountRequest.of(provider, name);
      if (credentialsRef != null) {
        request = request.credentialsRef(credentialsRef);
      }
      for (Map.Entry<String, String> property : properties.entrySet()) {
        request = request.property(property.getKey(), property.getValue());
      }
      try (Provisioner zop = client.client()) {
        client.show(zop.accounts().create(request));
      }
      return 0;
    }
  }
}
