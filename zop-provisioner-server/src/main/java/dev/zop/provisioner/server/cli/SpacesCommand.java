package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "spaces", mixinStandardHelpOptions = true, description = "Deployment spaces.",
    subcommands = {SpacesCommand.ListSpaces.class, SpacesCommand.Get.class, SpacesCommand.Create.class,
        SpacesCommand.Delete.class})
final class SpacesCommand {
  @Command(name = "list", mixinStandardHelpOptions = true)
  static final class ListSpaces implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        ClientOptions.print(zop.spaces().list());
      }
      return 0;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true)
  static final class Get implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "SPACE_ID")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        ClientOptions.print(zop.spaces().get(SpaceId.of(id)));
      }
      return 0;
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true)
  static final class Create implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = "--name", required = true)
    String name;

    @Option(names = "--provider", required = true)
    String provider;

    @Option(names = "--account", required = true, description = "cloud account id (ca_...)")
    String account;

    @Option(names = "--config", description = "provider settings, e.g. --config region=us-east-1")
    Map<String, String> config = Map.of();

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        ClientOptions.print(zop.spaces().create(
            new SpaceRequest(name, provider, null, CloudAccountId.of(account), config)));
      }
      return 0;
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true)
  static final class Delete implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "SPACE_ID")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        zop.spaces().delete(SpaceId.of(id));
      }
      return 0;
    }
  }
}
