package io.hooklens.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.rules.RuleIndex;
import io.hooklens.rules.input.HelmRenderFailed;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the layers pointing one way: core ← rules ← lsp ← cli, core ← rules ← cli, core ← chart ← app ← lsp, cli,
 * and core ← run ← app, lsp, cli; only the edges know their libraries.
 */
class LayeringTest {
  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.hooklens");

  @Test
  void coreKnowsNothingAboveIt() {
    noClasses().that().resideInAPackage("io.hooklens.core..")
        .should().dependOnClassesThat().resideInAnyPackage("io.hooklens.rules..", "io.hooklens.cli..",
            "io.hooklens.chart..", "io.hooklens.lsp..", "io.hooklens.run..", "io.hooklens.app..", "picocli..",
            "org.eclipse.lsp4j..")
        .check(CLASSES);
  }

  @Test
  void rulesKnowOnlyTheCore() {
    noClasses().that().resideInAPackage("io.hooklens.rules..")
        .should().dependOnClassesThat().resideInAnyPackage("io.hooklens.cli..", "io.hooklens.chart..",
            "io.hooklens.lsp..", "io.hooklens.run..", "io.hooklens.app..", "picocli..", "org.eclipse.lsp4j..",
            "org.snakeyaml..")
        .check(CLASSES);
  }

  /** HelmRenderFailed is named from outside for its id: the chart lint reports Helm's refusals under it. */
  @Test
  void theHookVocabularyLivesInTheModelSoOnlyTheRuleCatalogueIsReachedFromOutside() {
    noClasses().that().resideInAnyPackage("io.hooklens.run..", "io.hooklens.lsp..", "io.hooklens.cli..",
            "io.hooklens.chart..", "io.hooklens.app..")
        .should().dependOnClassesThat(resideInAPackage("io.hooklens.rules..")
            .and(not(belongToAnyOf(BuiltInRules.class, RuleIndex.class, HelmRenderFailed.class))))
        .check(CLASSES);
  }

  @Test
  void noRuleFamilyUsesAnotherFamilysClasses() {
    slices().matching("io.hooklens.rules.(*)..").should().notDependOnEachOther().check(CLASSES);
  }

  @Test
  void chartRenderingKnowsOnlyTheCoreAndOnlyTheApplicationAndTheCliUseIt() {
    noClasses().that().resideInAPackage("io.hooklens.chart..")
        .should().dependOnClassesThat().resideInAnyPackage("io.hooklens.rules..", "io.hooklens.cli..",
            "io.hooklens.lsp..", "io.hooklens.run..", "io.hooklens.app..")
        .check(CLASSES);
    noClasses().that().resideOutsideOfPackages("io.hooklens.chart..", "io.hooklens.app..", "io.hooklens.cli..")
        .should().dependOnClassesThat().resideInAPackage("io.hooklens.chart..")
        .check(CLASSES);
  }

  @Test
  void theApplicationServicesKnowNeitherFace() {
    noClasses().that().resideInAPackage("io.hooklens.app..")
        .should().dependOnClassesThat().resideInAnyPackage("io.hooklens.cli..", "io.hooklens.lsp..", "picocli..",
            "org.eclipse.lsp4j..")
        .check(CLASSES);
  }

  @Test
  void onlyChartRenderingUsesHelmAndNativeCalls() {
    noClasses().that().resideOutsideOfPackage("io.hooklens.chart..")
        .should().dependOnClassesThat().resideInAnyPackage("com.marcnuri.helm..", "com.sun.jna..")
        .check(CLASSES);
  }

  @Test
  void theLanguageServerKnowsOnlyTheCoreTheRulesAndTheRunner() {
    noClasses().that().resideInAPackage("io.hooklens.lsp..")
        .should().dependOnClassesThat().resideInAnyPackage("io.hooklens.cli..", "io.hooklens.chart..",
            "picocli..", "org.snakeyaml..")
        .check(CLASSES);
  }

  @Test
  void theCliAndTheLanguageServerReachTheRunnerOnlyThroughItsPlanRunnerAndReport() {
    noClasses().that().resideOutsideOfPackage("io.hooklens.run..")
        .should().dependOnClassesThat().resideInAnyPackage("io.hooklens.run.cluster..", "io.hooklens.run.node..")
        .check(CLASSES);
  }

  @Test
  void onlyTheLanguageServerUsesLsp4jAndItsJson() {
    noClasses().that().resideOutsideOfPackage("io.hooklens.lsp..")
        .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.lsp4j..", "com.google.gson..")
        .check(CLASSES);
  }

  @Test
  void theLanguageServerNeverWritesToStandardOutputWhichCarriesTheProtocol() {
    noClasses().that().resideInAPackage("io.hooklens.lsp..")
        .should().accessField(System.class, "out")
        .orShould().callMethod(System.class, "setOut", PrintStream.class)
        .check(CLASSES);
  }

  @Test
  void theRunnerKnowsNoEditorOrCliLayerAndOnlyItUsesTheKubernetesClient() {
    noClasses().that().resideInAPackage("io.hooklens.run..")
        .should().dependOnClassesThat().resideInAnyPackage("io.hooklens.cli..", "io.hooklens.lsp..",
            "io.hooklens.chart..", "io.hooklens.app..", "picocli..", "org.eclipse.lsp4j..")
        .check(CLASSES);
    noClasses().that().resideOutsideOfPackage("io.hooklens.run..")
        .should().dependOnClassesThat().resideInAnyPackage("io.fabric8..")
        .check(CLASSES);
  }

  @Test
  void onlyTheCliUsesPicocli() {
    noClasses().that().resideOutsideOfPackage("io.hooklens.cli..")
        .should().dependOnClassesThat().resideInAPackage("picocli..")
        .check(CLASSES);
  }

  @Test
  void engineAndRulesDoNoIo() {
    noClasses().that().resideInAnyPackage("io.hooklens.core..", "io.hooklens.rules..")
        .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.System")
        .check(CLASSES);
  }

  @Test
  void noPackageDependsOnItselfThroughAnother() {
    slices().matching("io.hooklens.(**)").should().beFreeOfCycles().check(CLASSES);
  }
}
