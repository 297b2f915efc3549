package dev.ireestubs.processor;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.abi.SipSignature;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.abi.V0Reflection;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks one {@code @IreeModule} element: that it is an interface a stub can implement, finds the
 * reflection of each abstract method (inline, in a JSON module file, or in a compiled {@code
 * .vmfb} through {@link VmfbExport#signature()}), and has the {@link Binder} bind each method.
 * Produces the {@link StubModel} when nothing was wrong.
 */
final class ModuleBinder {

  /** The {@code reflectionSource} of a signature given in {@code @IreeFunction(abi)}. */
  static final String INLINE_SOURCE = "@IreeFunction(abi)";

  private final Elements elements;
  private final Types types;
  private final ReflectionLoader loader;
  private final Predicate<Element> hasSource;

  private Set<String> unresolved = Set.of();

  ModuleBinder(
      Elements elements, Types types, ReflectionLoader loader, Predicate<Element> hasSource) {
    this.elements = elements;
    this.types = types;
    this.loader = loader;
    this.hasSource = hasSource;
  }

  /** Types the last {@link #bind} met that did not resolve; non-empty means "defer". */
  Set<String> unresolvedTypes() {
    return unresolved;
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

  /** Checks and binds {@code element}; empty when anything was reported or did not resolve. */
  Optional<StubModel> bind(TypeElement element, AnnotationMirror module, Reporter report) {
    unresolved = Set.of();
    Set<String> unresolvedHere = new LinkedHashSet<>();
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
          element,
          module,
          null);
      return Optional.empty();
    }
    ClassName stubName = stubName(element, elements);
    PackageElement pkg = elements.getPackageOf(element);
    boolean ok = checkInterface(element, module, stubName, pkg, report);

    String moduleName = Annotations.string(elements, module, "name");
    if (moduleName.isBlank()) {
      ok = false;
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeModule(name) is empty, but the functions are looked up in a module by name; name"
              + " the module (the default is \"module\")",
          element,
          module,
          Annotations.explicitValue(module, "name"));
    }
    // The module's reflection: a JSON module file or a compiled module. A file that fails is
    // reported once, here; the methods that needed it are then skipped rather than reported again.
    String abiPath = Annotations.string(elements, module, "abi").trim();
    String vmfbPath = Annotations.string(elements, module, "vmfb").trim();
    Map<String, FunctionSignature> moduleFunctions = null;
    VmfbModule compiled = null;
    boolean moduleFailed = false;
    if (!abiPath.isEmpty() && !vmfbPath.isEmpty()) {
      ok = false;
      moduleFailed = true;
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeModule sets both abi = "
              + Binder.quote(abiPath)
              + " and vmfb = "
              + Binder.quote(vmfbPath)
              + ", but an interface is checked against one of them; keep vmfb (the compiled module"
              + " that runs) and remove abi, or remove vmfb to check against the JSON file",
          element,
          module,
          Annotations.explicitValue(module, "vmfb"));
    } else if (!abiPath.isEmpty()) {
      moduleFunctions = loadModule(abiPath, element, module, report);
      moduleFailed = moduleFunctions == null;
      ok &= !moduleFailed;
    } else if (!vmfbPath.isEmpty()) {
      compiled = loadCompiledModule(vmfbPath, element, module, report);
      moduleFailed = compiled == null;
      ok &= !moduleFailed;
      if (compiled != null) {
        AnnotationValue nameValue = Annotations.explicitValue(module, "name");
        if (nameValue == null) {
          // The runtime looks the functions up under the name compiled into the module.
          moduleName = compiled.name();
        } else if (!moduleName.isBlank() && !moduleName.equals(compiled.name())) {
          ok = false;
          report.error(
              Tag.SIGNATURE_MISMATCH,
              "@IreeModule(name = "
                  + Binder.quote(moduleName)
                  + ") differs from the name compiled into "
                  + Binder.quote(vmfbPath)
                  + ", "
                  + Binder.quote(compiled.name())
                  + ", under which a runtime that loads it finds its functions; remove name (it"
                  + " defaults to the module's) or set it to "
                  + Binder.quote(compiled.name()),
              element,
              module,
              nameValue);
        }
      }
    }

    Binder binder =
        new Binder(elements, types, report, pkg, stubName.simpleName(), hasSource);
    List<FunctionModel> functions = new ArrayList<>();
    DeclaredType ifaceType = (DeclaredType) element.asType();
    for (ExecutableElement method : abstractMethods(element, report, unresolvedHere)) {
      ExecutableType methodType = (ExecutableType) types.asMemberOf(ifaceType, method);
      if (!method.getTypeParameters().isEmpty()) {
        ok = false;
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
            method);
        continue;
      }
      Optional<AnnotationMirror> function = Annotations.find(method, Annotations.IREE_FUNCTION);
      String functionName =
          function.map(m -> Annotations.string(elements, m, "value").trim()).orElse("");
      if (functionName.isEmpty()) {
        functionName = method.getSimpleName().toString();
      }
      boolean pydm =
          function
              .map(m -> Annotations.enumName(elements, m, "convention").equals("PYDM"))
              .orElse(false);
      if (pydm) {
        // IREEPyDM functions carry no reflection: the Java types give the calling convention.
        Optional<String> convention = Optional.empty();
        if (compiled != null) {
          Optional<VmfbExport> export =
              exportOrReport(compiled, vmfbPath, functionName, method, function, report);
          if (export.isEmpty()) {
            ok = false;
            continue;
          }
          convention = export.get().callingConvention();
        }
        String pydmSource =
            compiled == null ? "PyDM convention" : vmfbPath + " (PyDM, calling convention)";
        Optional<FunctionModel> bound =
            new PyDmBinder(types, report)
                .bind(method, methodType, functionName, convention, pydmSource);
        if (bound.isPresent()) {
          functions.add(bound.get());
        } else {
          ok = false;
        }
        continue;
      }
      String inline = function.map(m -> Annotations.string(elements, m, "abi").trim()).orElse("");
      FunctionSignature signature;
      String source;
      FunctionModel.Embedded embedded = null;
      if (!inline.isEmpty()) {
        signature = parseInline(inline, functionName, method, function.get(), report);
        source = INLINE_SOURCE;
        if (compiled != null) {
          // The module is known: the function must be in it, with the calling convention the
          // inline signature implies (the stub would otherwise fail when it binds).
          Optional<VmfbExport> export =
              exportOrReport(compiled, vmfbPath, functionName, method, function, report);
          if (export.isEmpty()) {
            signature = null;
          } else if (signature != null
              && !inlineAgreesWithExport(
                  signature, export.get(), functionName, vmfbPath, method, function.get(), report)) {
            signature = null;
          }
        }
        if (signature != null) {
          String attribute = Reflection.attributeOf(inline);
          embedded =
              attribute.equals(Reflection.IREE_ABI)
                  ? FunctionModel.Embedded.json(signature)
                  : new FunctionModel.Embedded(attribute, inline);
        }
      } else if (moduleFunctions != null) {
        signature = moduleFunctions.get(functionName);
        source = abiPath;
        if (signature == null) {
          unknownFunction(
              functionName,
              "the module file " + Binder.quote(abiPath),
              moduleFunctions.keySet(),
              method,
              function,
              report);
        } else {
          embedded = FunctionModel.Embedded.json(signature);
        }
      } else if (compiled != null) {
        Optional<VmfbExport> export =
            exportOrReport(compiled, vmfbPath, functionName, method, function, report);
        signature = null;
        source = null;
        if (export.isPresent()) {
          Reflection.Resolved resolved =
              resolve(export.get(), functionName, vmfbPath, method, report);
          if (resolved != null) {
            signature = resolved.signature();
            source = vmfbPath + " (" + resolved.source() + ")";
            embedded = embedded(export.get(), resolved);
          }
        }
      } else {
        signature = null;
        source = null;
        if (!moduleFailed) {
          report.error(
              Tag.NO_REFLECTION,
              functionName
                  + ": method "
                  + method.getSimpleName()
                  + " has no reflection to check it against; set @IreeModule(vmfb ="
                  + " \"<module>.vmfb\") or @IreeModule(abi = \"<file>.abi.json\") on "
                  + element.getSimpleName()
                  + ", or @IreeFunction(abi = \"{\\\"a\\\":[...],\\\"r\\\":[...]}\") on"
                  + " the method",
              method);
        }
      }
      if (signature == null) {
        ok = false;
        continue;
      }
      // The V0 structured ABI: bind to the SIP structure, flatten by leaf index at run time.
      String sipText = function.map(m -> Annotations.string(elements, m, "sip").trim()).orElse("");
      Optional<SipStructure> sip = Optional.empty();
      if (!sipText.isEmpty()) {
        sip = parseSip(sipText, signature, functionName, method, function.get(), report);
        if (sip.isEmpty()) {
          ok = false;
          continue;
        }
      } else if (inline.isEmpty() && compiled != null) {
        sip = moduleSip(compiled.export(functionName).orElseThrow(), functionName, method, report);
      }
      FunctionSignature bindTo = sip.map(SipStructure::signature).orElse(signature);
      Optional<FunctionModel> bound =
          binder.bindFunction(method, methodType, functionName, bindTo, source, embedded);
      if (sip.isPresent() && bound.isPresent()) {
        bound = Optional.of(bound.get().withSip(sip.get()));
      }
      if (bound.isPresent()) {
        functions.add(bound.get());
      } else {
        ok = false;
      }
    }
    unresolvedHere.addAll(binder.unresolvedTypes());
    unresolved = Set.copyOf(unresolvedHere);
    if (!ok || !unresolved.isEmpty() || report.hasErrors()) {
      return Optional.empty();
    }
    return Optional.of(new StubModel(element, stubName, moduleName, functions));
  }

  /** Interface-level checks: not generic, not sealed, accessible from its package. */
  private boolean checkInterface(
      TypeElement iface,
      AnnotationMirror module,
      ClassName stubName,
      PackageElement pkg,
      Reporter report) {
    boolean ok = true;
    if (!iface.getTypeParameters().isEmpty()) {
      ok = false;
      report.error(
          Tag.BAD_INTERFACE,
          "interface "
              + iface.getSimpleName()
              + " is generic, but a module's functions have fixed types; remove the type"
              + " parameters",
          iface);
    }
    if (iface.getModifiers().contains(Modifier.SEALED)) {
      ok = false;
      report.error(
          Tag.BAD_INTERFACE,
          "interface "
              + iface.getSimpleName()
              + " is sealed, so the generated "
              + stubName.simpleName()
              + " cannot implement it; remove sealed",
          iface);
    }
    for (Element e = iface; e instanceof TypeElement; e = e.getEnclosingElement()) {
      if (e.getModifiers().contains(Modifier.PRIVATE)) {
        ok = false;
        report.error(
            Tag.INACCESSIBLE_TYPE,
            (e == iface ? "interface " : "type ")
                + e.getSimpleName()
                + " is private, so the generated "
                + stubName.simpleName()
                + " in package "
                + (pkg.isUnnamed() ? "(unnamed)" : pkg.getQualifiedName().toString())
                + " cannot implement "
                + iface.getSimpleName()
                + "; make it package-private or public",
            iface,
            module,
            null);
        break;
      }
    }
    return ok;
  }

  /**
   * The abstract methods to bind: the interface's own in declaration order, then each
   * super-interface's (depth first, in {@code extends} order) that nothing before overrides.
   * Default and static methods, and abstract redeclarations of {@code Object}'s methods, are not
   * bound.
   */
  private List<ExecutableElement> abstractMethods(
      TypeElement iface, Reporter report, Set<String> unresolvedHere) {
    List<ExecutableElement> seen = new ArrayList<>();
    List<ExecutableElement> out = new ArrayList<>();
    collect(iface, iface, seen, out, report, unresolvedHere, new LinkedHashSet<>());
    return out;
  }

  private void collect(
      TypeElement type,
      TypeElement iface,
      List<ExecutableElement> seen,
      List<ExecutableElement> out,
      Reporter report,
      Set<String> unresolvedHere,
      Set<TypeElement> visited) {
    if (!visited.add(type)) {
      return;
    }
    DeclaredType ifaceType = (DeclaredType) iface.asType();
    for (ExecutableElement m : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (m.getModifiers().contains(Modifier.STATIC)
          || m.getModifiers().contains(Modifier.PRIVATE)) {
        continue;
      }
      boolean hidden = false;
      for (ExecutableElement s : seen) {
        if (s.equals(m)
            || elements.overrides(s, m, iface)
            || sameSignature(s, m, ifaceType)) {
          hidden = true;
          break;
        }
      }
      if (hidden) {
        continue;
      }
      seen.add(m);
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
                        m,
                        a,
                        null));
      }
    }
    for (TypeMirror superType : type.getInterfaces()) {
      if (superType.getKind() == TypeKind.ERROR) {
        unresolvedHere.add(superType.toString());
        continue;
      }
      if (superType.getKind() == TypeKind.DECLARED) {
        Element e = ((DeclaredType) superType).asElement();
        if (e instanceof TypeElement) {
          collect((TypeElement) e, iface, seen, out, report, unresolvedHere, visited);
        }
      }
    }
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

  private Map<String, FunctionSignature> loadModule(
      String abiPath, TypeElement iface, AnnotationMirror module, Reporter report) {
    AnnotationValue value = Annotations.explicitValue(module, "abi");
    ReflectionLoader.Found found;
    try {
      found = loader.load(abiPath);
    } catch (ReflectionLoader.LoadException e) {
      report.error(
          Tag.BAD_REFLECTION,
          "reflection file "
              + Binder.quote(abiPath)
              + " of @IreeModule "
              + iface.getSimpleName()
              + ": "
              + e.getMessage()
              + "; put the file in a resource folder (src/main/resources) or pass"
              + " -A"
              + IreeStubsProcessor.REFLECTION_DIR_OPTION
              + "=<directory>",
          iface,
          module,
          value);
      return null;
    }
    try {
      return AbiJson.parseModule(found.text());
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          "reflection file "
              + Binder.quote(abiPath)
              + " ("
              + found.where()
              + ") is not a module file of iree.abi JSON: "
              + e.getMessage()
              + "; fix the file (an object mapping function names to {\"a\":[...],\"r\":[...]})",
          iface,
          module,
          value);
      return null;
    }
  }

  private VmfbModule loadCompiledModule(
      String vmfbPath, TypeElement iface, AnnotationMirror module, Reporter report) {
    AnnotationValue value = Annotations.explicitValue(module, "vmfb");
    try {
      return loader.loadModule(vmfbPath).module();
    } catch (ReflectionLoader.LoadException e) {
      if (e.where().isPresent()) {
        String detail = e.getMessage();
        report.error(
            Tag.BAD_REFLECTION,
            "compiled module "
                + Binder.quote(vmfbPath)
                + " ("
                + e.where().get()
                + ") of @IreeModule "
                + iface.getSimpleName()
                + " is not a readable IREE module: "
                + detail
                + (detail.contains("git lfs")
                    ? ""
                    : "; point vmfb at the .vmfb file the IREE compiler wrote"),
            iface,
            module,
            value);
      } else {
        report.error(
            Tag.BAD_REFLECTION,
            "compiled module "
                + Binder.quote(vmfbPath)
                + " of @IreeModule "
                + iface.getSimpleName()
                + ": "
                + e.getMessage()
                + "; put the file in a resource folder (src/main/resources) or pass -A"
                + IreeStubsProcessor.REFLECTION_DIR_OPTION
                + "=<directory>",
            iface,
            module,
            value);
      }
      return null;
    }
  }

  /**
   * The best signature {@code export} has ({@link VmfbExport#signature()}); reflection that was
   * present but unusable is a warning, never an error. Null when the export has no usable signature
   * at all (reported).
   */
  private Reflection.Resolved resolve(
      VmfbExport export,
      String functionName,
      String vmfbPath,
      ExecutableElement method,
      Reporter report) {
    Reflection.Resolved resolved;
    try {
      resolved = export.signature();
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": the reflection of "
              + Binder.quote(functionName)
              + " in the compiled module "
              + Binder.quote(vmfbPath)
              + " does not parse: "
              + e.getMessage()
              + "; recompile the module, or state the signature in @IreeFunction(abi = ...) on"
              + " method "
              + method.getSimpleName(),
          method);
      return null;
    } catch (IllegalArgumentException | IllegalStateException e) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": the compiled module "
              + Binder.quote(vmfbPath)
              + " states no usable signature for "
              + Binder.quote(functionName)
              + ": "
              + e.getMessage()
              + "; state it in @IreeFunction(abi = ...) on method "
              + method.getSimpleName(),
          method);
      return null;
    }
    for (String warning : resolved.warnings()) {
      String checkedAgainst =
          resolved.source().equals(ReflectionFormat.CALLING_CONVENTION.displayName())
              ? "its calling convention "
                  + export.callingConvention().orElse("")
                  + " alone (the number of arguments and results and their VM kinds; no element"
                  + " types or shapes)"
              : "its " + resolved.source();
      String declaration =
          export
              .declaration()
              .filter(d -> warning.contains(Reflection.DECLARATION))
              .map(d -> "; the declaration is " + Binder.quote(abbreviate(d)))
              .orElse("");
      report.warning(
          Tag.REFLECTION_FALLBACK,
          functionName
              + ": in the compiled module "
              + Binder.quote(vmfbPath)
              + ", "
              + warning
              + ", so method "
              + method.getSimpleName()
              + " is checked against "
              + checkedAgainst
              + declaration,
          method,
          null,
          null);
    }
    return resolved;
  }

  /** What the stub embeds to rebuild the signature: the module's own text where JSON is lossy. */
  private static FunctionModel.Embedded embedded(VmfbExport export, Reflection.Resolved resolved) {
    String source = resolved.source();
    if (source.equals(Reflection.DECLARATION) || source.equals(V0Reflection.RAW_KEY)) {
      Optional<String> text = export.reflection().get(source);
      if (text.isPresent()) {
        return new FunctionModel.Embedded(source, text.get());
      }
    }
    return FunctionModel.Embedded.json(resolved.signature());
  }

  private static String abbreviate(String text) {
    int max = 400;
    return text.length() <= max ? text : text.substring(0, max) + "...";
  }

  /** The SIP structure {@code text} gives {@code raw}, or empty after reporting why not. */
  private Optional<SipStructure> parseSip(
      String text,
      FunctionSignature raw,
      String functionName,
      ExecutableElement method,
      AnnotationMirror function,
      Reporter report) {
    AnnotationValue value = Annotations.explicitValue(function, "sip");
    if (raw.format() != ReflectionFormat.V0_RAW) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": @IreeFunction(sip) of method "
              + method.getSimpleName()
              + " structures a V0 raw signature, but the function is described by its "
              + raw.format()
              + "; give the raw signature (I...R...) in @IreeFunction(abi) or remove sip",
          method,
          function,
          value);
      return Optional.empty();
    }
    try {
      return Optional.of(SipStructure.of(SipSignature.parse(text), raw));
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": @IreeFunction(sip) of method "
              + method.getSimpleName()
              + " does not fit: "
              + e.getMessage()
              + "; fix the text",
          method,
          function,
          value);
      return Optional.empty();
    }
  }

  /** The module's own SIP structure for an export with V0 {@code f} and {@code sip}, if any. */
  private static Optional<SipStructure> moduleSip(
      VmfbExport export, String functionName, ExecutableElement method, Reporter report) {
    try {
      return export.v0Reflection().flatMap(V0Reflection::structure);
    } catch (AbiParseException e) {
      report.warning(
          Tag.REFLECTION_FALLBACK,
          functionName
              + ": the module's V0 sip signature does not fit its raw signature ("
              + e.getMessage()
              + "); method "
              + method.getSimpleName()
              + " is checked against the raw signature",
          method,
          null,
          null);
      return Optional.empty();
    }
  }

  /**
   * Whether an {@code @IreeFunction(abi)} signature fits the calling convention of the export it
   * stands for; a mismatch is reported on the annotation value with every difference. An export
   * without a readable calling convention is not checked here (the stub checks at bind time).
   */
  private static boolean inlineAgreesWithExport(
      FunctionSignature signature,
      VmfbExport export,
      String functionName,
      String vmfbPath,
      ExecutableElement method,
      AnnotationMirror function,
      Reporter report) {
    Optional<String> text = export.callingConvention();
    if (text.isEmpty()) {
      return true;
    }
    CallingConvention convention;
    try {
      convention = CallingConvention.parse(text.get());
    } catch (AbiParseException e) {
      return true;
    }
    List<String> mismatches = convention.mismatches(signature);
    if (mismatches.isEmpty()) {
      return true;
    }
    report.error(
        Tag.SIGNATURE_MISMATCH,
        functionName
            + ": @IreeFunction(abi) of method "
            + method.getSimpleName()
            + " does not fit the calling convention "
            + text.get()
            + " of "
            + Binder.quote(functionName)
            + " in the compiled module "
            + Binder.quote(vmfbPath)
            + ": "
            + String.join("; ", mismatches)
            + "; fix the signature, or remove abi to check the method against the module's own"
            + " reflection",
        method,
        function,
        Annotations.explicitValue(function, "abi"));
    return false;
  }

  private FunctionSignature parseInline(
      String text,
      String functionName,
      ExecutableElement method,
      AnnotationMirror function,
      Reporter report) {
    AnnotationValue value = Annotations.explicitValue(function, "abi");
    try {
      return Reflection.parse(text);
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": @IreeFunction(abi) of method "
              + method.getSimpleName()
              + " does not parse: "
              + e.getMessage()
              + "; fix the text",
          method,
          function,
          value);
    }
    return null;
  }

  /**
   * @param where the module's reflection, for the message: {@code the module file "m.json"}, {@code
   *     the compiled module "m.vmfb"}
   * @param functions the function names it has, in its order
   */
  /** The export {@code functionName} of the compiled module, or empty after reporting it missing. */
  private Optional<VmfbExport> exportOrReport(
      VmfbModule compiled,
      String vmfbPath,
      String functionName,
      ExecutableElement method,
      Optional<AnnotationMirror> function,
      Reporter report) {
    Optional<VmfbExport> export = compiled.export(functionName);
    if (export.isEmpty()) {
      unknownFunction(
          functionName,
          "the compiled module " + Binder.quote(vmfbPath),
          compiled.exportNames(),
          method,
          function,
          report);
    }
    return export;
  }

  private void unknownFunction(
      String functionName,
      String where,
      Collection<String> functions,
      ExecutableElement method,
      Optional<AnnotationMirror> function,
      Reporter report) {
    Optional<String> near = Names.nearest(functionName, functions);
    boolean named =
        function.isPresent() && Annotations.explicitValue(function.get(), "value") != null;
    String fix =
        near.map(
                n ->
                    "; did you mean "
                        + Binder.quote(n)
                        + "? "
                        + (named
                            ? "change it to @IreeFunction(" + Binder.quote(n) + ")"
                            : "rename the method or annotate it @IreeFunction("
                                + Binder.quote(n)
                                + ")"))
            .orElse(
                named
                    ? "; name one of them in @IreeFunction"
                    : "; rename the method or name one of them with @IreeFunction(\"...\")");
    String message =
        functionName
            + ": "
            + where
            + " has no function "
            + Binder.quote(functionName)
            + " (functions: "
            + (functions.isEmpty() ? "none" : String.join(", ", functions))
            + ")"
            + fix;
    if (named) {
      report.error(
          Tag.UNKNOWN_FUNCTION,
          message,
          method,
          function.get(),
          Annotations.explicitValue(function.get(), "value"));
    } else {
      report.error(Tag.UNKNOWN_FUNCTION, message, method);
    }
  }

  private static String kindName(TypeElement e) {
    switch (e.getKind()) {
      case CLASS:
        return "class";
      case ENUM:
        return "enum";
      case RECORD:
        return "record";
      case ANNOTATION_TYPE:
        return "annotation type";
      default:
        return e.getKind().toString().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
