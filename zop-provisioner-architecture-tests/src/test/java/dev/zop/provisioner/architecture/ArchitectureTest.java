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
  private static final String[] ENGINE_SIDE = {"dev.zop.provisioner.core..", "dev.zop.provisioner.wire..",
      "dev.zop.provisioner.client..", "dev.zop.provisioner.server..", "dev.zop.provisioner.benchmarks.."};

  private static final String JOBS = "dev.zop.provisioner.core.internal.jobs";

  private static JavaClasses production;
  /**
   * The packages of every plug-in found on the class path (each cloud provider and the cluster components), named
   * by nothing here: a class that implements the SPI's {@code CloudProvider} or {@code ClusterComponents} makes
   * its package one.
   */
  private static String[] providers;

  @BeforeAll
  static void importClasses() {
    production = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.zop.provisioner");
    providers = production.stream()
        .filter(c -> !c.isInterface() && (c.isAssignableTo("dev.zop.provisioner.spi.CloudProvider")
            || c.isAssignableTo("dev.zop.provisioner.spi.ClusterComponents")))
        .map(c -> c.getPackageName() + "..").distinct().sorted().toArray(String[]::new);
  }

  @Test
  void everyModuleIsOnTheClassPath() {
    // a rule over classes that are not imported passes vacuously: make sure each artifact is seen
    for (String type : new String[] {"dev.zop.provisioner.Provisioner", "dev.zop.provisioner.kit.ProviderStep",
        "dev.zop.provisioner.wire.WireJson", "dev.zop.provisioner.core.EmbeddedProvisioner",
        "dev.zop.provisioner.client.ProvisionerClient",
        "dev.zop.provisioner.server.ProvisionerServer", "dev.zop.provisioner.notify.WebhookNotifier",
        "dev.zop.provisioner.cli.Zop"}) {
      if (!production.contain(type)) {
        throw new AssertionError(type + " was not imported: the rules below would not see its module");
      }
    }
    // every plug-in installed as a user's class path would have it is among the classes the rules see
    java.util.List<String> installed = new java.util.ArrayList<>();
    java.util.ServiceLoader.load(dev.zop.provisioner.spi.CloudProvider.class).stream()
        .forEach(p -> installed.add(p.type().getName()));
    java.util.ServiceLoader.load(dev.zop.provisioner.spi.ClusterComponents.class).stream()
        .forEach(p -> installed.add(p.type().getName()));
    // the simulated cloud, the three clouds the service ships, the cluster components and the example provider
    if (installed.size() < 6) {
      throw new AssertionError("only these plug-ins are installed: " + installed);
    }
    for (String type : installed) {
      if (!production.contain(type)) {
        throw new AssertionError(type + " is installed but was not imported");
      }
      String pkg = type.substring(0, type.lastIndexOf('.'));
      if (java.util.Arrays.stream(providers).noneMatch(p -> (pkg + ".").startsWith(p.substring(0, p.length() - 1)))) {
        throw new AssertionError(type + " is installed, but its package is not among the providers' "
            + java.util.Arrays.toString(providers));
      }
    }
  }

  @Test
  void theApiDependsOnNothingOfOursButItself() {
    classes().that().resideInAnyPackage(API)
        // JSpecify's annotations say which answer fields may be null: annotations only, no behaviour
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, "java..",
            "com.fasterxml.jackson.annotation..", "org.jspecify.annotations.."))
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
    noClasses().that().resideInAnyPackage(providers)
        .should().dependOnClassesThat().resideInAnyPackage(ENGINE_SIDE)
        .check(production);
    noClasses().that().resideInAnyPackage(providers)
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
        .should().dependOnClassesThat().resideInAnyPackage(concat(providers, "dev.zop.provisioner.testkit..",
            "dev.zop.provisioner.client..", "dev.zop.provisioner.server..", "dev.zop.provisioner.wire.."))
        .check(production);
  }

  @Test
  void theServerItselfNamesNoProviderNotEvenTheSimulatedCloud() {
    // the server takes a test double's faults through the SPI (FaultInjection); only the zop command's --demo,
    // which builds that double, names it
    noClasses().that().resideInAPackage("dev.zop.provisioner.server..")
        .and().resideOutsideOfPackage("dev.zop.provisioner.server.cli..")
        .should().dependOnClassesThat().resideInAnyPackage(providers)
        .check(production);
  }

  @Test
  void theServiceFindsItsProvidersAndNamesNone() {
    // zop serve configures whatever ServiceLoader finds (meters, poll interval) through the SPI alone; only its
    // --demo names the simulated cloud, the labelled test double it runs on
    noClasses().that().resideInAPackage("dev.zop.provisioner.server..")
        .should().dependOnClassesThat().resideInAnyPackage(java.util.Arrays.stream(providers)
            .filter(p -> !p.equals("dev.zop.provisioner.sim..")).toArray(String[]::new))
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
    // what keeps `zop` fast to start: no engine, store, service or provider on its class path (JSONPath, for
    // -o jsonpath, is a library of its own)
    classes().that().resideInAPackage("dev.zop.provisioner.cli..")
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, "dev.zop.provisioner.cli..",
            "dev.zop.provisioner.client", "dev.zop.provisioner.wire..", "picocli..", "com.fasterxml.jackson..",
            "com.jayway.jsonpath..", "java.."))
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

  @Test
  void theEnginesRuleIsAPureFunction() {
    // what follows a step is decided without I/O, threads or the clock: a table can test it whole
    classes().that().haveNameMatching(java.util.regex.Pattern.quote(JOBS + ".OutcomeRule") + "(\\$.*)?")
        .should().onlyDependOnClassesThat().resideInAnyPackage(concat(API, "dev.zop.provisioner.core",
            JOBS, "java.lang..", "java.time..", "java.util"))
        .check(production);
    noClasses().that().haveNameMatching(java.util.regex.Pattern.quote(JOBS + ".OutcomeRule") + "(\\$.*)?")
        .should().callMethod(java.time.Instant.class, "now")
        .orShould().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(java.util.concurrent.ThreadLocalRandom.class, "current")
        .check(production);
  }

  @Test
  void theRunnerSeesNeitherTheWorkerNorSubmitLeasing() {
    // the runner runs what it is handed; claiming, claim-ahead and leasing at submit stay behind the worker
    noClasses().that().haveNameMatching(java.util.regex.Pattern.quote(JOBS + ".StepRunner") + "(\\$.*)?")
        .should().dependOnClassesThat().haveNameMatching(
            java.util.regex.Pattern.quote(JOBS) + "\\.(Worker|Reservation)(\\$.*)?")
        .check(production);
    // a submit sees only the reservation it is given, never the worker itself
    noClasses().that().haveNameMatching(java.util.regex.Pattern.quote(JOBS + ".JobService") + "(\\$.*)?")
        .should().dependOnClassesThat().haveNameMatching(java.util.regex.Pattern.quote(JOBS + ".Worker") + "(\\$.*)?")
        .check(production);
  }

  @Test
  void remediationWorkflowsRunOnTheEnginesRunner() {
    // one runner, one rule: a workflow gives steps and a journal, and writes no job, step or lease row itself
    noClasses().that().resideInAPackage("dev.zop.provisioner.core.internal.remediation..")
        .should().dependOnClassesThat().haveNameMatching(java.util.regex.Pattern.quote(JOBS)
            + "\\.(FencedWriter|StatusTransitions|Lease|StepRunner|OutcomeRule)(\\$.*)?")
        .check(production);
    // the audit trail has one writer, the journal, which writes inside the runner's fenced transactions
    noClasses().that().haveNameNotMatching(java.util.regex.Pattern.quote(
            "dev.zop.provisioner.core.internal.remediation.RemediationWorkflows$AuditJournal"))
        .should().callMethod("dev.zop.provisioner.core.internal.remediation.RemediationRepository", "audit",
            "java.sql.Connection", "dev.zop.provisioner.JobId", "java.util.UUID", "java.lang.String",
            "java.lang.String", "java.lang.String", "java.lang.String")
        .check(production);
  }

  @Test
  void groupCommitIsWrittenOnce() {
    // the lanes lead, hand on and settle; the writers only say how a batch is committed
    noClasses().that().doNotHaveFullyQualifiedName("dev.zop.provisioner.core.internal.store.CommitLanes")
        .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
            "a commit turn's lead or awaitSettledOrTurn",
            call -> call.getTargetOwner().isAssignableTo("dev.zop.provisioner.core.internal.store.CommitTurn")
                && java.util.Set.of("lead", "awaitSettledOrTurn").contains(call.getName())))
        .check(production);
  }

  @Test
  void theJobsPackageHasNoFileCycles() {
    // classes nested in a file count as the file
    java.util.Map<String, java.util.Set<String>> uses = new java.util.TreeMap<>();
    for (com.tngtech.archunit.core.domain.JavaClass type : production) {
      if (!type.getPackageName().equals(JOBS)) {
        continue;
      }
      String file = fileOf(type);
      java.util.Set<String> targets = uses.computeIfAbsent(file, f -> new java.util.TreeSet<>());
      for (com.tngtech.archunit.core.domain.Dependency d : type.getDirectDependenciesFromSelf()) {
        com.tngtech.archunit.core.domain.JavaClass target = d.getTargetClass();
        if (target.getPackageName().equals(JOBS) && !fileOf(target).equals(file)) {
          targets.add(fileOf(target));
        }
      }
    }
    java.util.List<String> cycles = new java.util.ArrayList<>();
    for (String start : uses.keySet()) {
      findCycle(start, start, uses, new java.util.ArrayList<>(java.util.List.of(start)), cycles);
    }
    if (!cycles.isEmpty()) {
      throw new AssertionError("files of " + JOBS + " that use each other: " + cycles);
    }
  }

  private static String fileOf(com.tngtech.archunit.core.domain.JavaClass type) {
    String name = type.getName();
    int nested = name.indexOf('$');
    return nested < 0 ? type.getSimpleName() : name.substring(name.lastIndexOf('.') + 1, nested);
  }

  private static void findCycle(String start, String at, java.util.Map<String, java.util.Set<String>> uses,
      java.util.List<String> path, java.util.List<String> cycles) {
    for (String next : uses.getOrDefault(at, java.util.Set.of())) {
      if (next.equals(start)) {
        // each cycle once: from its alphabetically first file
        if (path.stream().allMatch(f -> f.compareTo(start) >= 0)) {
          cycles.add(String.join(" -> ", path) + " -> " + start);
        }
      } else if (!path.contains(next) && path.size() < 12) {
        path.add(next);
        findCycle(start, next, uses, path, cycles);
        path.remove(path.size() - 1);
      }
    }
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = new String[first.length + more.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}
