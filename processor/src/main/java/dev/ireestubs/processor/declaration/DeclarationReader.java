package dev.ireestubs.processor.declaration;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.processor.diagnostics.ElementLocation;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The first step of the pipeline: reads an {@code @IreeModule} element once into a {@link
 * Declaration} of plain values, reporting what is wrong with the declaration itself (not an
 * interface, generic, sealed, private; generic methods; an empty module name; {@code IreeFunction}
 * on a default method), and every type it names that does not resolve (another processor may
 * generate it: the interface then waits for a later round before any file is read). Finding its
 * module's reflection is the next step's job, matching it against that the binder's.
 */
public final class DeclarationReader {

  /** What the stub of a method of the IREEPyDM convention calls (artifact iree-stubs-pydm). */
  static final String PYDM_CLASS = "dev.ireestubs.pydm.PyDm";

  private final Elements elements;
  private final Types types;
  private final Predicate<Element> hasSource;

  public DeclarationReader(Elements elements, Types types, Predicate<Element> hasSource) {
    this.elements = elements;
    this.types = types;
    this.hasSource = hasSource;
  }

  /** The stub's name: {@code Iree_<Outer>_<Inner>} in the interface's package. */
  static ClassName stubName(TypeElement iface, Elements elements) {
    List<String> names = new ArrayList<>();
    for (Element e = iface; e instanceof TypeElement; e = e.getEnclosingElement()) {
      names.add(0, e.getSimpleName().toString());
    }
    return ClassName.get(
        elements.getPackageOf(iface).getQualifiedName().toString(),
        "Iree_" + String.join("_", names));
  }

  /**
   * The declaration of {@code element}; empty when it is no interface (reported). Other problems
   * with the declaration are reported and the rest is read, so that binding reports its own.
   */
  public Optional<Declaration> read(TypeElement element, AnnotationMirror module, Reporter report) {
    if (element.getKind() != ElementKind.INTERFACE) {
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeModule is on "
              + kindName(element)
              + " "
              + element.getSimpleName()
              + ", but it belongs on an interface, which the generated stub implements; declare "
              + element.getSimpleName()
              + " as an interface",
          new ElementLocation(element, module, null));
      return Optional.empty();
    }
    ClassName stubName = stubName(element, elements);
    PackageElement pkg = elements.getPackageOf(element);
    String packageName = pkg.isUnnamed() ? "(unnamed)" : pkg.getQualifiedName().toString();
    checkInterface(element, module, stubName, packageName, report);
    Declaration.ModuleAnnotation moduleAnnotation = moduleAnnotation(element, module, report);
    TypeReader typeReader = new TypeReader(elements, types, pkg, hasSource);
    Set<String> unresolved = new LinkedHashSet<>();
    List<Declaration.Method> methods = new ArrayList<>();
    DeclaredType ifaceType = (DeclaredType) element.asType();
    for (ExecutableElement method : abstractMethods(element, report, unresolved)) {
      if (!method.getTypeParameters().isEmpty()) {
        report.error(
            Tag.BAD_INTERFACE,
            "method "
                + method.getSimpleName()
                + " declares type parameters "
                + method.getTypeParameters().stream()
                    .map(Object::toString)
                    .collect(Collectors.joining(", ", "<", ">"))
                + ", but a module function has fixed types; remove them and use the types the"
                + " function takes",
            ElementLocation.of(method));
        continue;
      }
      methods.add(method(method, (ExecutableType) types.asMemberOf(ifaceType, method), typeReader));
      requirePyDm(method, report);
    }
    unresolved.addAll(typeReader.unresolved());
    return Optional.of(
        new Declaration(
            element.getSimpleName().toString(),
            element.getQualifiedName().toString(),
            ClassName.get(element),
            stubName,
            packageName,
            moduleAnnotation,
            methods,
            typeReader.records(),
            memberTypeNames(element),
            unresolved,
            ElementLocation.of(element),
            ModuleReads.reads(elements, element, ModuleReads.JAVA_COMPILER)));
  }

  /**
   * Reports that {@code declaration} still names types that do not resolve after the last round of
   * processing (see {@link Declaration#unresolved()}): before that, the interface waits for them.
   */
  public static void reportUnresolved(Declaration declaration, Reporter report) {
    Set<String> unresolved = declaration.unresolved();
    boolean one = unresolved.size() == 1;
    report.error(
        Tag.UNRESOLVED_TYPE,
        "cannot check "
            + declaration.simpleName()
            + " against its module: "
            + (one ? "type " : "types ")
            + String.join(", ", unresolved)
            + (one ? " is" : " are")
            + " not known, even after the last round of annotation processing; import or"
            + " declare "
            + (one ? "it" : "them"),
        declaration.location());
  }

  private Declaration.Method method(
      ExecutableElement method, ExecutableType type, TypeReader typeReader) {
    List<Declaration.Parameter> parameters = new ArrayList<>();
    List<? extends VariableElement> params = method.getParameters();
    for (int i = 0; i < params.size(); i++) {
      VariableElement p = params.get(i);
      Optional<Declaration.Key> key =
          Annotations.find(p, Annotations.IREE_KEY)
              .map(
                  m ->
                      new Declaration.Key(
                          Annotations.string(elements, m, "value"),
                          ElementLocation.of(p, m, "value")));
      parameters.add(
          new Declaration.Parameter(
              p.getSimpleName().toString(),
              typeReader.read(type.getParameterTypes().get(i)),
              key,
              ElementLocation.of(p)));
    }
    return new Declaration.Method(
        method.getSimpleName().toString(),
        parameters,
        typeReader.read(type.getReturnType()),
        Annotations.find(method, Annotations.IREE_FUNCTION).map(m -> function(method, m)),
        ElementLocation.of(method));
  }

  /**
   * Reports a method of the IREEPyDM convention when its stub could not compile: the code it
   * generates calls {@value #PYDM_CLASS}, of the optional artifact iree-stubs-pydm.
   */
  private void requirePyDm(ExecutableElement method, Reporter report) {
    Annotations.find(method, Annotations.IREE_FUNCTION)
        .filter(m -> Annotations.enumName(elements, m, "convention").equals("PYDM"))
        .filter(m -> elements.getTypeElement(PYDM_CLASS) == null)
        .ifPresent(
            m ->
                report.error(
                    Tag.MISSING_DEPENDENCY,
                    "method "
                        + method.getSimpleName()
                        + " uses the IREEPyDM convention, whose stub calls "
                        + PYDM_CLASS
                        + ", but that class is not on the class path; add the dependency"
                        + " dev.ireestubs:iree-stubs-pydm",
                    ElementLocation.of(method, m, "convention")));
  }

  private Declaration.FunctionAnnotation function(ExecutableElement method, AnnotationMirror m) {
    return new Declaration.FunctionAnnotation(
        Annotations.string(elements, m, "value").trim(),
        Annotations.explicitValue(m, "value") != null,
        Annotations.string(elements, m, "abi").trim(),
        Annotations.string(elements, m, "sip").trim(),
        Annotations.enumName(elements, m, "convention").equals("PYDM"),
        new ElementLocation(method, m, null),
        ElementLocation.of(method, m, "value"),
        ElementLocation.of(method, m, "abi"),
        ElementLocation.of(method, m, "sip"));
  }

  private Declaration.ModuleAnnotation moduleAnnotation(
      TypeElement element, AnnotationMirror module, Reporter report) {
    String name = Annotations.string(elements, module, "name");
    ElementLocation nameAt = ElementLocation.of(element, module, "name");
    if (name.isBlank()) {
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeModule(name) is empty, but the functions are looked up in a module by name; name"
              + " the module (the default is \"module\")",
          nameAt);
    }
    return new Declaration.ModuleAnnotation(
        name,
        Annotations.explicitValue(module, "name") != null,
        Annotations.string(elements, module, "abi").trim(),
        Annotations.string(elements, module, "vmfb").trim(),
        new ElementLocation(element, module, null),
        nameAt,
        ElementLocation.of(element, module, "abi"),
        ElementLocation.of(element, module, "vmfb"));
  }

  /** Interface-level checks: not generic, not sealed, accessible from its package. */
  private static void checkInterface(
      TypeElement iface,
      AnnotationMirror module,
      ClassName stubName,
      String packageName,
      Reporter report) {
    if (!iface.getTypeParameters().isEmpty()) {
      report.error(
          Tag.BAD_INTERFACE,
          "interface "
              + iface.getSimpleName()
              + " is generic, but a module's functions have fixed types; remove the type"
              + " parameters",
          ElementLocation.of(iface));
    }
    if (iface.getModifiers().contains(Modifier.SEALED)) {
      report.error(
          Tag.BAD_INTERFACE,
          "interface "
              + iface.getSimpleName()
              + " is sealed, so the generated "
              + stubName.simpleName()
              + " cannot implement it; remove sealed",
          ElementLocation.of(iface));
    }
    for (Element e = iface; e instanceof TypeElement; e = e.getEnclosingElement()) {
      if (e.getModifiers().contains(Modifier.PRIVATE)) {
        report.error(
            Tag.INACCESSIBLE_TYPE,
            (e == iface ? "interface " : "type ")
                + e.getSimpleName()
                + " is private, so the generated "
                + stubName.simpleName()
                + " in package "
                + packageName
                + " cannot implement "
                + iface.getSimpleName()
                + "; make it package-private or public",
            new ElementLocation(iface, module, null));
        break;
      }
    }
  }

  /**
   * The simple names of the member types of {@code iface} and of every super-interface: the stub
   * inherits them, so in its body they shadow the names it imports.
   */
  private static Set<String> memberTypeNames(TypeElement iface) {
    Set<String> names = new LinkedHashSet<>();
    List<TypeElement> todo = new ArrayList<>(List.of(iface));
    Set<TypeElement> seen = new LinkedHashSet<>();
    while (!todo.isEmpty()) {
      TypeElement t = todo.remove(todo.size() - 1);
      if (!seen.add(t)) {
        continue;
      }
      for (TypeElement nested : ElementFilter.typesIn(t.getEnclosedElements())) {
        names.add(nested.getSimpleName().toString());
      }
      for (TypeMirror s : t.getInterfaces()) {
        if (s.getKind() == TypeKind.DECLARED) {
          todo.add((TypeElement) ((DeclaredType) s).asElement());
        }
      }
    }
    return names;
  }

  /**
   * The abstract methods to bind: the interface's own in declaration order, then each
   * super-interface's (depth first, in {@code extends} order) that nothing before overrides.
   * Default and static methods, and abstract redeclarations of {@code Object}'s methods, are not
   * bound.
   */
  private List<ExecutableElement> abstractMethods(
      TypeElement iface, Reporter report, Set<String> unresolved) {
    Map<String, List<ExecutableElement>> seen = new HashMap<>();
    List<ExecutableElement> out = new ArrayList<>();
    collect(iface, iface, seen, out, report, unresolved, new LinkedHashSet<>());
    return out;
  }

  private void collect(
      TypeElement type,
      TypeElement iface,
      Map<String, List<ExecutableElement>> seen,
      List<ExecutableElement> out,
      Reporter report,
      Set<String> unresolved,
      Set<TypeElement> visited) {
    if (!visited.add(type)) {
      return;
    }
    DeclaredType ifaceType = (DeclaredType) iface.asType();
    for (ExecutableElement m : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (m.getModifiers().contains(Modifier.STATIC)
          || m.getModifiers().contains(Modifier.PRIVATE)
          || hidden(m, seen, iface, ifaceType)) {
        continue;
      }
      seen.computeIfAbsent(m.getSimpleName().toString(), k -> new ArrayList<>()).add(m);
      if (m.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(m)) {
        out.add(m);
      } else if (m.getModifiers().contains(Modifier.DEFAULT)) {
        Annotations.find(m, Annotations.IREE_FUNCTION)
            .ifPresent(
                a ->
                    report.warning(
                        Tag.IGNORED_ANNOTATION,
                        "method "
                            + m.getSimpleName()
                            + " is a default method, which the stub does not implement, so"
                            + " @IreeFunction on it has no effect; remove it, or make the"
                            + " method abstract to bind it",
                        new ElementLocation(m, a, null)));
      }
    }
    for (TypeMirror superType : type.getInterfaces()) {
      if (superType.getKind() == TypeKind.ERROR) {
        unresolved.add(superType.toString());
        continue;
      }
      if (superType.getKind() == TypeKind.DECLARED) {
        Element e = ((DeclaredType) superType).asElement();
        if (e instanceof TypeElement typeElement) {
          collect(typeElement, iface, seen, out, report, unresolved, visited);
        }
      }
    }
  }

  /**
   * Whether a method already collected overrides or has the same signature as {@code m}: only
   * methods of the same name can (so an interface of thousands of methods is not quadratic).
   */
  private boolean hidden(
      ExecutableElement m,
      Map<String, List<ExecutableElement>> seen,
      TypeElement iface,
      DeclaredType in) {
    for (ExecutableElement s : seen.getOrDefault(m.getSimpleName().toString(), List.of())) {
      if (s.equals(m) || elements.overrides(s, m, iface) || sameSignature(s, m, in)) {
        return true;
      }
    }
    return false;
  }

  private boolean sameSignature(ExecutableElement a, ExecutableElement b, DeclaredType in) {
    if (!a.getSimpleName().equals(b.getSimpleName())
        || a.getParameters().size() != b.getParameters().size()) {
      return false;
    }
    ExecutableType ta = (ExecutableType) types.asMemberOf(in, a);
    ExecutableType tb = (ExecutableType) types.asMemberOf(in, b);
    for (int i = 0; i < ta.getParameterTypes().size(); i++) {
      if (!types.isSameType(
          types.erasure(ta.getParameterTypes().get(i)),
          types.erasure(tb.getParameterTypes().get(i)))) {
        return false;
      }
    }
    return true;
  }

  /** {@code equals}, {@code hashCode} and {@code toString}: implemented by every object. */
  private static boolean isObjectMethod(ExecutableElement m) {
    String name = m.getSimpleName().toString();
    int n = m.getParameters().size();
    if (n == 0) {
      return name.equals("hashCode") || name.equals("toString");
    }
    return n == 1
        && name.equals("equals")
        && m.getParameters().get(0).asType().toString().equals("java.lang.Object");
  }

  private static String kindName(TypeElement e) {
    return switch (e.getKind()) {
      case CLASS -> "class";
      case ENUM -> "enum";
      case RECORD -> "record";
      case ANNOTATION_TYPE -> "annotation type";
      default -> e.getKind().toString().toLowerCase(Locale.ROOT);
    };
  }
}
