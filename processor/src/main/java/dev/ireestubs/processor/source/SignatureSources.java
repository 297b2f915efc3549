package dev.ireestubs.processor.source;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.abi.SipSignature;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.abi.V0Reflection;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.names.Names;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The second step ({@link #find}): reads the reflection an interface names ({@link
 * ModuleReflection}: its module file or compiled module) and finds each method's signature in it
 * (inline in {@code @IreeFunction(abi)}, in the module file, or in a compiled module through {@link
 * VmfbExport#signature()}), and its V0 SIP structure, or says that it is an IREEPyDM function; an
 * asynchronous method's is its asynchronous export's ({@link AsyncSources}). Reports what is
 * missing or does not parse; a declaration that falls back to a poorer format is a warning.
 */
public final class SignatureSources {

  /** The description of a signature given in {@code @IreeFunction(abi)}. */
  static final String INLINE_SOURCE = "@IreeFunction(abi)";

  private final Declaration declaration;
  private final ModuleReflection module;
  private final Reporter report;

  private SignatureSources(Declaration declaration, ModuleReflection module, Reporter report) {
    this.declaration = declaration;
    this.module = module;
    this.report = report;
  }

  /**
   * Reads the reflection {@code declaration} names through {@code loader} and finds the source of
   * each method's signature in it, reporting what is missing, unreadable or does not fit.
   */
  public static InterfaceSources find(
      Declaration declaration, ReflectionLoader loader, Reporter report) {
    ModuleReflection module = ModuleReflection.read(declaration, loader, report);
    SignatureSources sources = new SignatureSources(declaration, module, report);
    AsyncSources async = new AsyncSources(module, report);
    List<MethodSource> methods = new ArrayList<>();
    for (Declaration.Method method : declaration.methods()) {
      Optional<MethodSource> found;
      if (AsyncSources.isAsync(method)) {
        found =
            async
                .read(method)
                .flatMap(a -> sources.of(a.view()).flatMap(s -> async.check(method, a, s)));
      } else if (async.checkSync(method)) {
        found = sources.of(method).map(s -> new MethodSource(method, s, Optional.empty()));
      } else {
        found = Optional.empty();
      }
      found.ifPresent(methods::add);
    }
    return new InterfaceSources(module.moduleName(), methods, loader.inputs());
  }

  /** The source of {@code method}'s signature; empty when there is none (reported). */
  Optional<FunctionSource> of(Declaration.Method method) {
    Optional<Declaration.FunctionAnnotation> function = method.function();
    if (function.isPresent() && function.get().pydm()) {
      return pyDm(method);
    }
    String inline = function.map(Declaration.FunctionAnnotation::abi).orElse("");
    Optional<FunctionSource.Typed> typed =
        inline.isEmpty()
            ? fromModule(method)
            : inline(inline, method.functionName(), method, function.get());
    if (typed.isEmpty()) {
      return Optional.empty();
    }
    String sip = function.map(Declaration.FunctionAnnotation::sip).orElse("");
    if (!sip.isEmpty()) {
      return SipSources.parse(sip, typed.get(), method, function.get(), report)
          .map(s -> withSip(typed.get(), s));
    }
    if (inline.isEmpty() && module.compiled().isPresent()) {
      VmfbExport export = module.compiled().get().export(method.functionName()).orElseThrow();
      return Optional.of(
          SipSources.ofModule(export, method.functionName(), method, report)
              .map(s -> withSip(typed.get(), s))
              .orElse(typed.get()));
    }
    return Optional.of(typed.get());
  }

  /** IREEPyDM functions carry no reflection: the Java types give the calling convention. */
  private Optional<FunctionSource> pyDm(Declaration.Method method) {
    String functionName = method.functionName();
    if (module.compiled().isEmpty()) {
      return Optional.of(
          new FunctionSource.PyDm(functionName, Optional.empty(), "PyDM convention"));
    }
    return export(functionName, method)
        .map(
            e ->
                new FunctionSource.PyDm(
                    functionName,
                    e.callingConvention(),
                    module.vmfbPath() + " (PyDM, calling convention)"));
  }

  /** The signature in the interface's module file or compiled module, or empty (reported). */
  private Optional<FunctionSource.Typed> fromModule(Declaration.Method method) {
    String functionName = method.functionName();
    if (module.functions().isPresent()) {
      FunctionSignature signature = module.functions().get().get(functionName);
      if (signature == null) {
        unknownFunction(
            functionName,
            "the module file " + Messages.quote(module.abiPath()),
            module.functions().get().keySet(),
            method);
        return Optional.empty();
      }
      return Optional.of(
          new FunctionSource.Typed(functionName, signature, module.abiPath(), Optional.empty()));
    }
    if (module.compiled().isPresent()) {
      return export(functionName, method).flatMap(e -> compiled(e, functionName, method));
    }
    if (!module.failed()) {
      report.error(
          Tag.NO_REFLECTION,
          functionName
              + ": method "
              + method.name()
              + " has no reflection to check it against; set @IreeModule(vmfb ="
              + " \"<module>.vmfb\") or @IreeModule(abi = \"<file>.abi.json\") on "
              + declaration.simpleName()
              + ", or @IreeFunction(abi = \"{\\\"a\\\":[...],\\\"r\\\":[...]}\") on"
              + " the method",
          method.location());
    }
    return Optional.empty();
  }

  private static FunctionSource withSip(FunctionSource.Typed typed, SipStructure sip) {
    return new FunctionSource.Typed(
        typed.functionName(), typed.signature(), typed.description(), Optional.of(sip));
  }

  /**
   * An {@code @IreeFunction(abi)} signature; on an interface of a compiled module the function must
   * be one of its exports, with the calling convention the signature implies.
   */
  private Optional<FunctionSource.Typed> inline(
      String text,
      String functionName,
      Declaration.Method method,
      Declaration.FunctionAnnotation function) {
    FunctionSignature signature;
    try {
      signature = Reflection.parse(text);
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": @IreeFunction(abi) of method "
              + method.name()
              + " does not parse: "
              + e.getMessage()
              + "; fix the text",
          function.abiLocation());
      signature = null;
    }
    if (module.compiled().isPresent()) {
      Optional<VmfbExport> export = export(functionName, method);
      if (export.isEmpty()
          || (signature != null
              && !inlineAgreesWithExport(
                  signature, export.get(), functionName, method, function))) {
        return Optional.empty();
      }
    }
    return Optional.ofNullable(signature)
        .map(s -> new FunctionSource.Typed(functionName, s, INLINE_SOURCE, Optional.empty()));
  }

  /**
   * Whether an {@code @IreeFunction(abi)} signature fits the calling convention of the export it
   * stands for; a mismatch is reported on the annotation value with every difference. An export
   * without a readable calling convention is not checked here (the stub checks at bind time).
   */
  private boolean inlineAgreesWithExport(
      FunctionSignature signature,
      VmfbExport export,
      String functionName,
      Declaration.Method method,
      Declaration.FunctionAnnotation function) {
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
            + method.name()
            + " does not fit the calling convention "
            + text.get()
            + " of "
            + Messages.quote(functionName)
            + " in the compiled module "
            + Messages.quote(module.vmfbPath())
            + ": "
            + String.join("; ", mismatches)
            + "; fix the signature, or remove abi to check the method against the module's own"
            + " reflection",
        function.abiLocation());
    return false;
  }

  /**
   * The best signature {@code export} has ({@link VmfbExport#signature()}); reflection that was
   * present but unusable is a warning, never an error. Empty when the export has no usable
   * signature at all (reported).
   */
  private Optional<FunctionSource.Typed> compiled(
      VmfbExport export, String functionName, Declaration.Method method) {
    String vmfbPath = module.vmfbPath();
    Reflection.Resolved resolved;
    try {
      resolved = export.signature();
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": the reflection of "
              + Messages.quote(functionName)
              + " in the compiled module "
              + Messages.quote(vmfbPath)
              + " does not parse: "
              + e.getMessage()
              + "; recompile the module, or state the signature in @IreeFunction(abi = ...) on"
              + " method "
              + method.name(),
          method.location());
      return Optional.empty();
    } catch (IllegalArgumentException | IllegalStateException e) {
      report.error(
          Tag.BAD_REFLECTION,
          functionName
              + ": the compiled module "
              + Messages.quote(vmfbPath)
              + " states no usable signature for "
              + Messages.quote(functionName)
              + ": "
              + e.getMessage()
              + "; state it in @IreeFunction(abi = ...) on method "
              + method.name(),
          method.location());
      return Optional.empty();
    }
    for (String warning : resolved.warnings()) {
      fallbackWarning(export, resolved, warning, functionName, method);
    }
    return Optional.of(
        new FunctionSource.Typed(
            functionName,
            resolved.signature(),
            vmfbPath + " (" + resolved.source() + ")",
            Optional.empty()));
  }

  private void fallbackWarning(
      VmfbExport export,
      Reflection.Resolved resolved,
      String warning,
      String functionName,
      Declaration.Method method) {
    String checkedAgainst =
        resolved.source().equals(ReflectionFormat.CALLING_CONVENTION.displayName())
            ? "its calling convention "
                + export.callingConvention().orElse("")
                + " alone (the number of arguments and results and their VM kinds; no element"
                + " types or shapes)"
            : "its " + resolved.source();
    String declarationText =
        export
            .declaration()
            .filter(d -> warning.contains(Reflection.DECLARATION))
            .map(d -> "; the declaration is " + Messages.quote(Messages.abbreviate(d, 400)))
            .orElse("");
    report.warning(
        Tag.REFLECTION_FALLBACK,
        functionName
            + ": in the compiled module "
            + Messages.quote(module.vmfbPath())
            + ", "
            + warning
            + ", so method "
            + method.name()
            + " is checked against "
            + checkedAgainst
            + declarationText,
        method.location());
  }

  /**
   * The export {@code functionName} of the compiled module, or empty after reporting it missing.
   */
  private Optional<VmfbExport> export(String functionName, Declaration.Method method) {
    VmfbModule compiled = module.compiled().orElseThrow();
    Optional<VmfbExport> export = compiled.export(functionName);
    if (export.isEmpty()) {
      unknownFunction(
          functionName,
          "the compiled module " + Messages.quote(module.vmfbPath()),
          compiled.exportNames(),
          method);
    }
    return export;
  }

  /**
   * @param where the module's reflection, for the message: {@code the module file "m.json"}
   * @param functions the function names it has, in its order
   */
  private void unknownFunction(
      String functionName, String where, Collection<String> functions, Declaration.Method method) {
    Optional<String> near = Names.nearest(functionName, functions);
    Optional<Declaration.FunctionAnnotation> function =
        method.function().filter(Declaration.FunctionAnnotation::valueExplicit);
    boolean named = function.isPresent();
    String fix =
        near.map(
                n ->
                    "; did you mean "
                        + Messages.quote(n)
                        + "? "
                        + (named
                            ? "change it to @IreeFunction(" + Messages.quote(n) + ")"
                            : "rename the method or annotate it @IreeFunction("
                                + Messages.quote(n)
                                + ")"))
            .orElse(
                named
                    ? "; name one of them in @IreeFunction"
                    : "; rename the method or name one of them with @IreeFunction(\"...\")");
    report.error(
        Tag.UNKNOWN_FUNCTION,
        functionName
            + ": "
            + where
            + " has no function "
            + Messages.quote(functionName)
            + " (functions: "
            + (functions.isEmpty() ? "none" : Messages.list(functions))
            + ")"
            + fix,
        named ? function.get().valueLocation() : method.location());
  }

  /** The V0 structured ABI: a method's SIP structure, given or the module's own. */
  private static final class SipSources {
    private SipSources() {}

    /**
     * The SIP structure {@code text} gives the raw signature of {@code typed}, or empty (reported).
     */
    static Optional<SipStructure> parse(
        String text,
        FunctionSource.Typed typed,
        Declaration.Method method,
        Declaration.FunctionAnnotation function,
        Reporter report) {
      FunctionSignature raw = typed.signature();
      String functionName = typed.functionName();
      if (raw.format() != ReflectionFormat.V0_RAW) {
        report.error(
            Tag.BAD_REFLECTION,
            functionName
                + ": @IreeFunction(sip) of method "
                + method.name()
                + " structures a V0 raw signature, but the function is described by its "
                + raw.format()
                + "; give the raw signature (I...R...) in @IreeFunction(abi) or remove sip",
            function.sipLocation());
        return Optional.empty();
      }
      try {
        return Optional.of(SipStructure.of(SipSignature.parse(text), raw));
      } catch (AbiParseException e) {
        report.error(
            Tag.BAD_REFLECTION,
            functionName
                + ": @IreeFunction(sip) of method "
                + method.name()
                + " does not fit: "
                + e.getMessage()
                + "; fix the text",
            function.sipLocation());
        return Optional.empty();
      }
    }

    /** The module's own SIP structure for an export with V0 {@code f} and {@code sip}, if any. */
    static Optional<SipStructure> ofModule(
        VmfbExport export, String functionName, Declaration.Method method, Reporter report) {
      try {
        return export.v0Reflection().flatMap(V0Reflection::structure);
      } catch (AbiParseException e) {
        report.warning(
            Tag.REFLECTION_FALLBACK,
            functionName
                + ": the module's V0 sip signature does not fit its raw signature ("
                + e.getMessage()
                + "); method "
                + method.name()
                + " is checked against the raw signature",
            method.location());
        return Optional.empty();
      }
    }
  }
}
