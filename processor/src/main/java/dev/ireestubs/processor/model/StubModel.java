package dev.ireestubs.processor.model;

import com.palantir.javapoet.ClassName;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the writer needs for one {@code @IreeModule} interface, after every check passed: the
 * names, and one {@link CallPlan} per bound method. Plain values only: the writer never sees a
 * compiler type.
 *
 * @param iface the annotated interface
 * @param stubName {@code Iree_<Outer>_<Inner>} in the interface's package
 * @param moduleName the module the functions are looked up in at run time
 * @param functions one per abstract method, the interface's own methods first in declaration order,
 *     then inherited ones
 * @param inheritedTypeNames simple names of the types nested in the interface and its
 *     super-interfaces: the stub inherits them, so it must qualify its own types of those names
 * @param marksGenerated whether the stub is annotated {@code @Generated}: false in a named module
 *     that does not read {@code java.compiler}, where the annotation would not compile
 */
public record StubModel(
    ClassName iface,
    ClassName stubName,
    String moduleName,
    List<CallPlan> functions,
    Set<String> inheritedTypeNames,
    boolean marksGenerated) {
  public StubModel {
    Objects.requireNonNull(iface, "iface");
    Objects.requireNonNull(stubName, "stubName");
    Objects.requireNonNull(moduleName, "moduleName");
    functions = List.copyOf(functions);
    inheritedTypeNames = Set.copyOf(inheritedTypeNames);
  }
}
