package dev.zop.provisioner.cli;

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
        SpacesCommand.Delete.class, SpacesCommand.Discovery.class, SpacesCommand.Status.class})
final class SpacesCommand {
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the deployment spaces.")
  static final class ListSpaces implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.spaces().list());
      }
      return 0;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Show one space (its credentials are never shown).")
  static final class Get implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "SPACE_ID", description = "the space's id (spc_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.spaces().get(SpaceId.of(id)));
      }
      return 0;
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Make a space: where jobs run, in one cloud account and the provider's settings.")
  static final class Create implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = "--name", required = true, description = "the space's name")
    String name;

    @Option(names = "--provider", required = true, description = "aws, gcp, azure, or sim (the simulated cloud)")
    String provider;

    @Option(names = "--account", required = true, description = "cloud account id (ca_...)")
    String account;

    @Option(names = "--config", description = "provider settings, e.g. --config region=us-east-1")
    Map<String, String> config = Map.of();

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.spaces().create(
            new SpaceRequest(name, provider, null, CloudAccountId.of(account), config)));
      }
      return 0;
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a space that holds no jobs.")
  static final class Delete implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "SPACE_ID", description = "the space's id (spc_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        zop.spaces().delete(SpaceId.of(id));
      }
      return 0;
    }
  }

  @Command(name = "discovery", mixinStandardHelpOptions = true,
      description = "What the space's cloud holds that a job may name: networks, subnets, clusters, DNS zones.")
  static final class Discovery implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "SPACE_ID", description = "the space's id (spc_...)")
    String id;

    @Option(names = "--what", description = "networks, subnets, clusters or dns-zones (default networks)")
    String what = "networks";

    @Option(names = "--network", description = "with --what subnets: only this network's")
    String network;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        var found = zop.spaces().discovery(SpaceId.of(id));
        client.show(switch (what) {
          case "networks" -> found.networks();
          case "subnets" -> found.subnets(network);
          case "clusters" -> found.clusters();
          case "dns-zones" -> found.dnsZones();
          default -> throw new IllegalArgumentException("--what is networks, subnets, clusters or dns-zones");
        });
      }
      return 0;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Set a space active or inactive; an inactive space takes no new jobs.")
  static final class Status implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "SPACE_ID", description = "the space's id (spc_...)")
    String id;

    @Parameters(index = "1", paramLabel = "STATUS", description = "active or inactive")
    String status;

    @Override
    public Integer call() {
      dev.zop.provisioner.SpaceStatus wanted = switch (status) {
        case "active" -> dev.zop.provisioner.SpaceStatus.ACTIVE;
        case "inactive" -> dev.zop.provisioner.SpaceStatus.INACTIVE;
        default -> throw new IllegalArgumentException("STATUS is active or inactive");
      };
      try (Provisioner zop = client.client()) {
        client.show(zop.spaces().setStatus(SpaceId.of(id), wanted));
      }
      return 0;
    }
  }
}
