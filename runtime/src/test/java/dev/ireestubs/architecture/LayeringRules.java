package dev.ireestubs.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The runtime's layering rules, for the packages under one root ({@code dev.ireestubs} for the
 * runtime itself; {@link LayeringTest} also checks them on a fixture that breaks them).
 *
 * <p>Each package may use only the packages below it. From the bottom:
 *
 * <table>
 *   <caption>The runtime's packages, bottom up</caption>
 *   <tr><th>package</th><th>what it is</th><th>may use</th></tr>
 *   <tr><td>{@code abi}</td><td>the signature model and the parsers of every reflection format
 *       (the bind-time check reads the loaded module's reflection)</td><td>nothing of ours; the
 *       shaded JSON reader (abi alone touches Jackson)</td></tr>
 *   <tr><td>{@code vmfb}</td><td>the reader of compiled modules</td><td>abi</td></tr>
 *   <tr><td>{@code vm}</td><td>the VM's values: lists, buffer views, refs, fences</td>
 *       <td>abi</td></tr>
 *   <tr><td>{@code ndarray}</td><td>typed arrays: value types, no marshalling</td>
 *       <td>vm, abi</td></tr>
 *   <tr><td>{@code invoke}</td><td>the backend SPI, dynamic calls, the checks of a value
 *       ({@code ValueChecks}), the exceptions</td><td>ndarray, vm, abi</td></tr>
 *   <tr><td>{@code host}</td><td>modules written in Java, fakes of a {@code .vmfb}</td>
 *       <td>invoke, ndarray, vm, vmfb, abi</td></tr>
 *   <tr><td>{@code internal}</td><td>what generated stubs call: above the user API, below nothing
 *       a user holds</td><td>invoke, ndarray, vm, abi</td></tr>
 * </table>
 *
 * <p>And: no cycle between packages; nothing of the runtime uses the compiler's APIs ({@code
 * javax.lang.model}, {@code javax.annotation.processing}: those belong to the tools).
 */
final class LayeringRules {

  private LayeringRules() {}

  /** The rules for the runtime's packages under {@code root}. */
  static List<ArchRule> of(String root) {
    return List.of(layers(root), noCycles(root), noCompilerApi(root), jsonInAbiOnly(root));
  }

  /** Each package uses only those below it; {@code internal} and {@code host} are used by none. */
  static ArchRule layers(String root) {
    return layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("abi")
        .definedBy(root + ".abi..")
        .layer("vmfb")
        .definedBy(root + ".vmfb..")
        .layer("vm")
        .definedBy(root + ".vm..")
        .layer("ndarray")
        .definedBy(root + ".ndarray..")
        .layer("invoke")
        .definedBy(root + ".invoke..")
        .layer("host")
        .definedBy(root + ".host..")
        .layer("internal")
        .definedBy(root + ".internal..")
        .whereLayer("internal")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("host")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("invoke")
        .mayOnlyBeAccessedByLayers("host", "internal")
        .whereLayer("ndarray")
        .mayOnlyBeAccessedByLayers("invoke", "host", "internal")
        .whereLayer("vm")
        .mayOnlyBeAccessedByLayers("ndarray", "invoke", "host", "internal")
        .whereLayer("vmfb")
        .mayOnlyBeAccessedByLayers("host")
        .because(
            "each package of the runtime uses only the packages below it (LayeringRules):"
                + " abi < vm < ndarray < invoke < host, internal; vmfb < host; internal, what"
                + " generated code calls, is used by nothing a user holds");
  }

  /** No two packages use each other, directly or through others. */
  static ArchRule noCycles(String root) {
    return slices()
        .matching(root + ".(*)..")
        .should()
        .beFreeOfCycles()
        .because("a package that uses one above it makes the layers one tangle");
  }

  /** The compiler's APIs are the tools' (processor, derive), never the runtime's. */
  static ArchRule noCompilerApi(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("javax.lang.model..", "javax.annotation.processing..", "javax.tools..")
        .because("an application ships the runtime: the compiler's APIs belong to the tools");
  }

  /** Only {@code abi} reads JSON (with the Jackson the runtime's jar shades). */
  static ArchRule jsonInAbiOnly(String root) {
    return noClasses()
        .that()
        .resideInAPackage(root + "..")
        .and()
        .resideOutsideOfPackage(root + ".abi..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.fasterxml.jackson..")
        .because("reflection JSON is abi's to read; the runtime's jar shades the reader it uses");
  }
}
