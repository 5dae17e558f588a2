package dev.zop.provisioner.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries, checked over the production classes of every artifact the build makes: API, SPI and
 * internals apart; providers see only the API, its SPI and the provider kit; no package cycles.
 */
class ArchitectureTest {
  private static final String[] API = {"dev.zop.provisioner", "dev.zop.provisioner.spec..",
      "dev.zop.provisioner.spi..", "dev.zop.provisioner.discovery..", "dev.zop.provisioner.remediation.."};
  private static final String KIT = "dev.zop.provisioner.kit..";
  private static final String[] PROVIDERS = {"dev.zop.provisioner.aws..", "dev.zop.provisioner.gcp..",
      "dev.zop.provisioner.azure..",
      "dev.zop.provisioner.helm..",
      "dev.zop.provisioner.sim..", "dev.zop.provisioner.examples.localcloud.."};
  private static final String[] ENGINE_SIDE = {"dev.zop.provisioner.core..", "dev.zop.provisioner.wire..",
      "dev.zop.provisioner.client..", "dev.zop.provisioner.server..", "dev.zop.provisioner.benchmarks.."};

  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.zop.provisioner");
  }

  @Test
  void everyModuleIsOnTheClassPath() {
    // a rule over classes that are not imported passes vacuously: make sure each artifact is seen
    for (String type : new String[] {"dev.zop.provisioner.Provisioner", "dev.zop.provisioner.kit.ProviderStep",
        "dev.zop.provisioner.wire.WireJson", "dev.zop.provisioner.core.EmbeddedProvisioner",
        "dev.zop.provisioner.sim.SimProvider", "dev.zop.provisioner.aws.AwsProvider",
        "dev.zop.provisioner.gcp.GcpProvider", "dev.zop.provisioner.azure.AzureProvider",
        "dev.zop.provisioner.helm.HelmComponents", "dev.zop.provisioner.client.ProvisionerClient",
        "dev.zop.provisioner.server.ProvisionerServer", "dev.zop.provisioner.notify.WebhookNotifier",
        "dev.zop.provisioner.cli.Zop",
        "dev.zop.provisioner.examples.localcloud.LocalCloudProvider"}) {
      if (!production.contain(type)) {
        throw new AssertionError(type + " was not imported: the rules below would not see its module");
      }
    }
  }

  @Test
  void theApiDependsOnNothingOfOursButItself() {
    classes().that().resideInAnyPackage(API)
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, "java..", "com.fasterxml.jackson.annotation.."))
        .check(production);
  }

  @Test
  void theKitSeesOnlyTheApi() {
    classes().that().resideInAPackage(KIT)
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, KIT, "java..", "com.fasterxml.jackson.."))
        .check(production);
  }

  @Test
  void providersSeeOnlyTheApiSpiAndKit() {
    noClasses().that().resideInAnyPackage(PROVIDERS)
        .should().dependOnClassesThat().resideInAnyPackage(ENGINE_SIDE)
        .check(production);
    noClasses().that().resideInAnyPackage("dev.zop.provisioner.aws..", "dev.zop.provisioner.gcp..",
            "dev.zop.provisioner.azure..",
            "dev.zop.provisioner.helm..", "dev.zop.provisioner.sim..", "dev.zop.provisioner.examples.localcloud..")
        .should().dependOnClassesThat().resideInAPackage("dev.zop.provisioner.testkit..")
        .check(production);
    // the sim ships (zop serve --demo): it stands on the API and the kit alone, like a real provider
    classes().that().resideInAPackage("dev.zop.provisioner.sim..")
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, KIT, "dev.zop.provisioner.sim..",
            "java.."))
        .check(production);
  }

  @Test
  void notifiersSeeOnlyTheApiAndSpi() {
    classes().that().resideInAPackage("dev.zop.provisioner.notify..")
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, "dev.zop.provisioner.notify..", "java..",
            "javax.crypto..", "jakarta.mail..", "com.fasterxml.jackson..", "io.github.resilience4j..", "org.slf4j.."))
        .check(production);
  }

  @Test
  void nothingOutsideAModuleUsesItsInternals() {
    for (String module : new String[] {"core", "client", "server"}) {
      noClasses().that().resideOutsideOfPackage("dev.zop.provisioner." + module + "..")
          .should().dependOnClassesThat().resideInAPackage("dev.zop.provisioner." + module + ".internal..")
          .check(production);
    }
  }

  @Test
  void theCoreNeverNamesAProviderAClientOrTheServer() {
    noClasses().that().resideInAPackage("dev.zop.provisioner.core..")
        .should().dependOnClassesThat().resideInAnyPackage(concat(PROVIDERS, "dev.zop.provisioner.testkit..",
            "dev.zop.provisioner.client..", "dev.zop.provisioner.server..", "dev.zop.provisioner.wire.."))
        .check(production);
  }

  @Test
  void clientAndServiceShareOnlyTheWireContract() {
    noClasses().that().resideInAPackage("dev.zop.provisioner.client..")
        .should().dependOnClassesThat().resideInAPackage("dev.zop.provisioner.server..")
        .check(production);
    // the service never calls itself through the client; its commands (server.cli) join the zop command
    noClasses().that().resideInAPackage("dev.zop.provisioner.server..")
        .should().dependOnClassesThat().resideInAPackage("dev.zop.provisioner.client..")
        .check(production);
    noClasses().that().resideInAPackage("dev.zop.provisioner.server..")
        .and().resideOutsideOfPackage("dev.zop.provisioner.server.cli..")
        .should().dependOnClassesThat().resideInAPackage("dev.zop.provisioner.cli..")
        .check(production);
  }

  @Test
  void theClientCommandsStandOnTheClientAlone() {
    // what keeps `zop` fast to start: no engine, store, service or provider on its class path
    classes().that().resideInAPackage("dev.zop.provisioner.cli..")
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, "dev.zop.provisioner.cli..",
            "dev.zop.provisioner.client", "dev.zop.provisioner.wire..", "picocli..", "com.fasterxml.jackson..",
            "java.."))
        .check(production);
  }

  @Test
  void modulesHaveNoCycles() {
    slices().matching("dev.zop.provisioner.(*)..").should().beFreeOfCycles().check(production);
  }

  @Test
  void coreFeaturesHaveNoCycles() {
    slices().matching("dev.zop.provisioner.core.internal.(*)..").should().beFreeOfCycles().check(production);
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = new String[first.length + more.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}
