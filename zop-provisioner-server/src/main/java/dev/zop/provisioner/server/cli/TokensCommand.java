package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.server.AccessStore;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "tokens", mixinStandardHelpOptions = true, description = "Make and revoke API tokens.",
    subcommands = {TokensCommand.Create.class, TokensCommand.Revoke.class, TokensCommand.Role.class})
final class TokensCommand {
  static AccessStore open(EmbeddedProvisioner engine) {
    return AccessStore.open(engine.dataSource());
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Make a bearer token; it is printed once and only its hash is kept.")
  static final class Create implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--org", required = true, description = "the organisation the token acts in")
    String org;

    @Option(names = "--actor", required = true, description = "who the token acts as, e.g. alice@acme.com")
    String actor;

    @Option(names = "--role", required = true, split = ",",
        description = "admin, operator, viewer, or a custom role of the organisation")
    List<String> roles;

    @Option(names = "--ttl-days", description = "expiry in days (default: none)")
    Integer ttlDays;

    @Override
    public Integer call() {
      try (EmbeddedProvisioner engine = store.open()) {
        AccessStore.IssuedToken issued = open(engine).createToken(org, actor, new LinkedHashSet<>(roles),
            ttlDays == null ? null : Duration.ofDays(ttlDays));
        System.out.println(issued.token());
        System.err.println("token " + issued.id() + " for " + actor + " in " + org + " " + roles
            + "; store it now, it is not shown again");
      }
      return 0;
    }
  }

  @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a token by its id (tok_...).")
  static final class Revoke implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--id", required = true, description = "the token's id (tok_...), as create printed it")
    String id;

    @Override
    public Integer call() {
      try (EmbeddedProvisioner engine = store.open()) {
        open(engine).revoke(id);
      }
      return 0;
    }
  }

  @Command(name = "role", mixinStandardHelpOptions = true,
      description = "Define a custom role with exactly the policies given, e.g. provisioning:view,space:view.")
  static final class Role implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--org", required = true, description = "the organisation the role is defined in")
    String org;

    @Option(names = "--name", required = true, description = "the role's name, given to tokens with --role")
    String name;

    @Option(names = "--policy", required = true, split = ",", description = "the policies the role grants")
    List<String> policies;

    @Override
    public Integer call() {
      try (EmbeddedProvisioner engine = store.open()) {
        open(engine).defineRole(org, name, new LinkedHashSet<>(policies));
      }
      return 0;
    }
  }
}
