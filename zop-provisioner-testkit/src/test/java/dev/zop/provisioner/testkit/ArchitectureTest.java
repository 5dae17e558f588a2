package dev.zop.provisioner.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Holds the module boundaries: API, SPI and internals apart; providers see only the API. */
class ArchitectureTest {
  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.zop.provisioner");
  }

  @Test
  void theApiDependsOnNothingOfOurs() {
    noClasses().that().resideInAnyPackage("dev.zop.provisioner", "dev.zop.provisioner.spec..",
            "dev.zop.provisioner.spi..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.zop.provisioner.core..",
            "dev.zop.provisioner.testkit..")
        .check(production);
  }

  @Test
  void onlyTheCoreUsesItsInternals() {
    noClasses().that().resideOutsideOfPackage("dev.zop.provisioner.core..")
        .should().dependOnClassesThat().resideInAPackage("dev.zop.provisioner.core.internal..")
        .check(production);
  }

  @Test
  void providersSeeOnlyTheApiAndSpi() {
    classes().that().resideInAPackage("dev.zop.provisioner.testkit.sim..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("dev.zop.provisioner", "dev.zop.provisioner.spec..",
            "dev.zop.provisioner.spi..", "dev.zop.provisioner.discovery..", "dev.zop.provisioner.testkit.sim..",
            "java..", "com.google.auto.service..")
        .check(production);
  }

  @Test
  void theCoreNeverNamesAProvider() {
    noClasses().that().resideInAPackage("dev.zop.provisioner.core..")
        .should().dependOnClassesThat().resideInAPackage("dev.zop.provisioner.testkit..")
        .check(production);
  }
}
