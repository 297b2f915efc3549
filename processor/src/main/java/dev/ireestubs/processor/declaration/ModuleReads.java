package dev.ireestubs.processor.declaration;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Whether code generated beside an element may name a JDK module's types: in the unnamed module
 * (the class path) every module is read; in a named module only those its {@code module-info}
 * requires, directly or through a {@code requires transitive} of a module it requires.
 *
 * <p>Generated sources are marked {@code @javax.annotation.processing.Generated} only where the
 * module reads {@code java.compiler}: in a named module that does not, the mark would stop javac
 * with "package javax.annotation.processing is not visible", and generated code must always
 * compile.
 */
public final class ModuleReads {

  /** The module of {@code javax.annotation.processing.Generated}. */
  public static final String JAVA_COMPILER = "java.compiler";

  private ModuleReads() {}

  /**
   * True when code in {@code element}'s module reads module {@code name}: always in the unnamed
   * module (or when the compiler has no modules); in a named module when it is that module, or it
   * requires it (static or not), or requires a module that requires it transitively.
   *
   * @param elements the compiler's element utilities
   * @param element an element of the compilation, e.g. the annotated interface or its package
   * @param name a module name, e.g. {@link #JAVA_COMPILER}
   * @return whether the module reads {@code name}
   */
  public static boolean reads(Elements elements, Element element, String name) {
    ModuleElement module = elements.getModuleOf(element);
    if (module == null || module.isUnnamed() || module.getQualifiedName().contentEquals(name)) {
      return true;
    }
    Set<String> seen = new HashSet<>();
    Deque<ModuleElement> todo = new ArrayDeque<>();
    // The module's own requires count whatever their kind; a required module's only when
    // transitive (they are what reading it implies).
    for (ModuleElement.RequiresDirective r : ElementFilter.requiresIn(module.getDirectives())) {
      todo.add(r.getDependency());
    }
    while (!todo.isEmpty()) {
      ModuleElement m = todo.poll();
      String qualified = m.getQualifiedName().toString();
      if (qualified.equals(name)) {
        return true;
      }
      if (seen.add(qualified)) {
        for (ModuleElement.RequiresDirective r : ElementFilter.requiresIn(m.getDirectives())) {
          if (r.isTransitive()) {
            todo.add(r.getDependency());
          }
        }
      }
    }
    return false;
  }
}
