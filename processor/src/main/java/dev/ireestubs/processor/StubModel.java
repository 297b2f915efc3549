package dev.ireestubs.processor;

import com.palantir.javapoet.ClassName;
import java.util.List;
import java.util.Objects;
import javax.lang.model.element.TypeElement;

/**
 * Everything the writer needs for one {@code @IreeModule} interface, after every check passed: the
 * stub's name and one marshalling plan per bound method.
 *
 * @param iface the annotated interface (the stub's one originating element)
 * @param stubName {@code Iree_<Outer>_<Inner>} in the interface's package
 * @param moduleName the module the functions are looked up in at run time
 * @param functions one per abstract method, the interface's own methods first in declaration
 *     order, then inherited ones
 */
record StubModel(
    TypeElement iface, ClassName stubName, String moduleName, List<FunctionModel> functions) {
  StubModel {
    Objects.requireNonNull(iface, "iface");
    Objects.requireNonNull(stubName, "stubName");
    Objects.requireNonNull(moduleName, "moduleName");
    functions = List.copyOf(functions);
  }
}
