package dev.ireestubs.iree;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.iree.IreeIncompatibleModuleException.Reason;
import dev.ireestubs.vmfb.BytecodeVersion;
import dev.ireestubs.vmfb.HalRequirement;
import dev.ireestubs.vmfb.RuntimeGeneration;
import dev.ireestubs.vmfb.VmfbSchemaEra;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns IREE's refusal to load a module into a message a user can act on. IREE's texts (from {@code
 * vm/bytecode/verifier.c}, {@code vm/context.c} and the HAL module) are matched loosely, so a
 * reworded message falls back to the plain status.
 */
final class ModuleErrors {
  private ModuleErrors() {}

  static final String RELEASE_RULE =
      "A .vmfb runs only on a runtime of the IREE release that compiled it";

  private static final Pattern RUNTIME_SUPPORTS =
      Pattern.compile("runtime supports (\\d+)\\.(\\d+)");

  private static final Pattern PARAMETER_SCOPE = Pattern.compile("scopes like '([^']*)'");

  /** The module layout every IREE 3.x runtime reads (bytecode 15 and later). */
  static final VmfbSchemaEra CURRENT_LAYOUT = VmfbSchemaEra.FUNCTION_SIGNATURES_2023;

  /** What kind of incompatibility the status reports, if it is one. */
  static Optional<Reason> classify(int statusCode, String text) {
    return classify(statusCode, text, Optional.empty());
  }

  /**
   * What kind of incompatibility the status reports, if it is one; {@code layout}, the module
   * layout iree-stubs' reader found, turns IREE's bare "FlatBuffer verification failed" on a module
   * of an older layout into the release mismatch it is.
   */
  static Optional<Reason> classify(int statusCode, String text, Optional<VmfbSchemaEra> layout) {
    String t = text == null ? "" : text;
    if (t.contains("bytecode version mismatch")) {
      return Optional.of(Reason.BYTECODE_VERSION);
    }
    if (t.contains("FlatBuffer verification failed")
        && layout.isPresent()
        && layout.get() != CURRENT_LAYOUT) {
      return Optional.of(Reason.BYTECODE_VERSION);
    }
    if (t.contains("required module") && t.contains("version mismatch")) {
      return Optional.of(Reason.DEPENDENCY_VERSION);
    }
    if (t.contains("import function") && t.contains("signature mismatch")) {
      return Optional.of(Reason.IMPORT_SIGNATURE);
    }
    if (statusCode == IreeStatusCode.INCOMPATIBLE.code()
        || (t.contains("HAL device") && t.contains("not found or unavailable"))) {
      return Optional.of(Reason.TARGET);
    }
    return Optional.empty();
  }

  /**
   * True when IREE refused the module for want of external parameters: it imports the {@code
   * io_parameters} module, which the session does not provide (or provides without the scope the
   * module asks for).
   */
  static boolean needsParameters(String text) {
    String t = text == null ? "" : text;
    return t.contains("'io_parameters'")
        || t.contains("io_parameters.")
        || t.contains("no provider registered that handles scopes");
  }

  private static String parametersAdvice(String text, Optional<Set<String>> bound) {
    Matcher scope = PARAMETER_SCOPE.matcher(text);
    String asks = scope.find() ? " (it asks for scope '" + scope.group(1) + "')" : "";
    String state =
        bound.isEmpty()
            ? "this session provides none. " + HOW_TO_BIND
            : "this session binds "
                + scopeList(bound.get())
                + ": check that each scope the"
                + " module names has its archive and that the archives hold the keys the module"
                + " loads (compare with iree-run-module --parameters=SCOPE=FILE.irpa)";
    return ". The module imports IREE's io_parameters module: its weights are not inside the"
        + " .vmfb but in external parameter archives (.irpa, .gguf or .safetensors) that must be"
        + " provided when the module is loaded"
        + asks
        + ", and "
        + state;
  }

  static final String HOW_TO_BIND =
      "Bind them with IreeSession.load(vmfb, Parameters.builder().scope(SCOPE, file).build()) or"
          + " IreeBackend.Options.withParameters(...), as iree-run-module takes"
          + " --parameters=SCOPE=FILE.irpa; or compile the model with its weights inlined into"
          + " the module";

  /**
   * The refusal, before IREE sees it, of a module that loads parameters from {@code needed} scopes
   * when the session binds none ({@code bound} empty) or not all of them.
   */
  static IreeInvocationException missingParameters(
      String source, List<String> needed, Optional<Set<String>> bound) {
    String asks =
        needed.isEmpty()
            ? "loads weights from parameter archives (it imports IREE's io_parameters module)"
            : "loads weights from parameter archives in scope"
                + (needed.size() == 1 ? " " : "s ")
                + scopeList(needed)
                + " (it imports IREE's io_parameters module)";
    String has;
    if (bound.isEmpty()) {
      has = "this session binds no parameter archives. " + HOW_TO_BIND;
    } else {
      List<String> missing = new ArrayList<>(needed);
      missing.removeAll(bound.get());
      has =
          "this session binds "
              + scopeList(bound.get())
              + " but not "
              + scopeList(missing)
              + ": bind an archive to each scope the module names (scope names are case-sensitive;"
              + " iree-stubs inspect lists them)";
    }
    return new IreeInvocationException(
        source
            + ": cannot load this module: it "
            + asks
            + ", and "
            + has
            + ". The module imports IREE's io_parameters module: its weights are in external"
            + " parameter archives (.irpa, .gguf or .safetensors)",
        IreeStatusCode.NOT_FOUND.code());
  }

  static String scopeList(Collection<String> scopes) {
    List<String> quoted = new ArrayList<>();
    for (String s : scopes) {
      quoted.add("'" + s + "'");
    }
    return quoted.isEmpty() ? "no scope" : String.join(", ", quoted);
  }

  /**
   * The refusal of a second module named {@code name} in one session: IREE resolves {@code
   * name.function} to the module appended last, so the first one's functions would be silently
   * shadowed.
   */
  static IllegalArgumentException duplicateName(String source, String name, String loadedFrom) {
    return new IllegalArgumentException(
        source
            + ": a module named '"
            + name
            + "' is already loaded in this session (from "
            + loadedFrom
            + "); IREE would resolve '"
            + name
            + ".<function>' to the module loaded"
            + " last and silently hide the first one's functions. Load it into another session"
            + " (IreeRuntime.newSession()), or compile it under another module name");
  }

  /**
   * Whether a module that requires {@code module} of IREE's HAL loads on a runtime of {@code
   * runtime}: false only when both generations are known and differ.
   */
  static boolean generationsMatch(HalRequirement module, RuntimeRelease runtime) {
    return module.generation().loadsOn(runtime.generation());
  }

  /**
   * The refusal, before IREE sees it, of a module compiled for the other runtime generation, e.g.
   * {@code compiled by IREE ≤ 3.11 (hal 0.6); this runtime is IREE 3.12.0rc20260822 (hal 0.7):
   * recompile it with an IREE 3.12+ compiler, or run it on an IREE 3.11 runtime}.
   */
  static IreeIncompatibleModuleException wrongGeneration(
      String source,
      HalRequirement module,
      RuntimeRelease runtime,
      Optional<BytecodeVersion> bytecodeVersion) {
    RuntimeGeneration needs = module.generation();
    String recompile;
    String otherRuntime;
    if (needs == RuntimeGeneration.IREE_3_11_AND_EARLIER) {
      recompile = "an IREE 3.12+ compiler (the release of this runtime)";
      otherRuntime =
          "an IREE 3.11 runtime ("
              + LibraryLocator.BUILD_SCRIPT
              + " --version 3.11.0 builds one; -D"
              + IreeLibrary.VERSION_PROPERTY
              + "=3.11.0 selects it)";
    } else {
      recompile = "an IREE 3.11 compiler (pip install iree-base-compiler==3.11.0)";
      otherRuntime =
          "an IREE 3.12+ runtime ("
              + LibraryLocator.BUILD_SCRIPT
              + " --version 3.12.0rc20260822 builds one; -D"
              + IreeLibrary.VERSION_PROPERTY
              + "=3.12.0rc20260822 selects it)";
    }
    String imports =
        module
            .dispatchCallingConvention()
            .map(
                c ->
                    ", its "
                        + HalRequirement.DISPATCH_IMPORT
                        + " import has calling convention "
                        + c)
            .orElse("");
    return new IreeIncompatibleModuleException(
        source
            + ": cannot load this module on this runtime: it was compiled by "
            + module.describe()
            + imports
            + "; this runtime is IREE "
            + runtime.describe()
            + ", whose HAL module it does not match (IREE would refuse it while resolving its"
            + " imports). Recompile it with "
            + recompile
            + ", or run it on "
            + otherRuntime
            + ". "
            + RELEASE_RULE
            + ".",
        IreeStatusCode.INCOMPATIBLE.code(),
        Reason.RUNTIME_GENERATION,
        bytecodeVersion,
        needs,
        runtime.generation());
  }

  /** Which IREE releases write a bytecode version (iree-runtime-c-api.md, section 3). */
  static String releasesWriting(BytecodeVersion v) {
    return switch (v.major()) {
      case 17 -> "IREE 3.11 and the 3.12 pre-releases";
      case 16 -> "IREE 3.10";
      case 15 -> "IREE releases from 2023-03 up to 3.9";
      default ->
          v.major() < 15 ? "an IREE release before 2023-03" : "an IREE release newer than 3.11";
    };
  }

  /**
   * The exception for a module IREE would not load: an {@link IreeIncompatibleModuleException} for
   * version and target trouble, else a plain {@link IreeInvocationException}.
   *
   * @param source the file or name of the module
   * @param ireeText IREE's formatted status
   * @param moduleVersion the module's bytecode version, as iree-stubs' reader found it
   * @param layout the module's layout, as iree-stubs' reader found it
   * @param driver the device's driver name, for target errors
   * @param boundScopes the parameter scopes the session binds (empty: none)
   */
  static IreeInvocationException loadFailure(
      String source,
      int statusCode,
      String ireeText,
      Optional<BytecodeVersion> moduleVersion,
      Optional<VmfbSchemaEra> layout,
      String driver,
      Optional<Set<String>> boundScopes) {
    String head =
        source
            + ": IREE's runtime cannot load this module ("
            + IreeStatusCode.describe(statusCode)
            + "): "
            + ireeText;
    if (needsParameters(ireeText)) {
      return new IreeInvocationException(
          head + parametersAdvice(ireeText, boundScopes), statusCode);
    }
    Optional<Reason> reason = classify(statusCode, ireeText, layout);
    if (reason.isEmpty()) {
      return new IreeInvocationException(head, statusCode);
    }
    String module =
        moduleVersion
            .map(
                v ->
                    "The module has bytecode version "
                        + v
                        + " (written by "
                        + releasesWriting(v)
                        + ")")
            .orElse(
                layout
                    .map(
                        l ->
                            "The module has no bytecode version: its layout ("
                                + l.displayName()
                                + ") was written by an IREE release before"
                                + " 2022-05")
                    .orElse("The module's bytecode version could not be read"));
    if (layout.isPresent() && layout.get() != CURRENT_LAYOUT && moduleVersion.isPresent()) {
      module +=
          ", in a layout ("
              + layout.get().displayName()
              + ") that IREE 3.x runtimes"
              + " do not read";
    }
    String runtime = "";
    Matcher m = RUNTIME_SUPPORTS.matcher(ireeText);
    if (m.find()) {
      BytecodeVersion r =
          new BytecodeVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      runtime = "; this runtime reads bytecode " + r + " (" + releasesWriting(r) + ")";
    }

    String advice =
        switch (reason.get()) {
          case BYTECODE_VERSION ->
              ". "
                  + module
                  + runtime
                  + ". "
                  + RELEASE_RULE
                  + ": recompile the model with this runtime's IREE release, or load it with a"
                  + " runtime library of the module's release.";
          case DEPENDENCY_VERSION, IMPORT_SIGNATURE ->
              ". The module was compiled against another version of IREE's HAL than this runtime"
                  + " provides, by another IREE release, even if the bytecode version matches. "
                  + module
                  + ". "
                  + RELEASE_RULE
                  + ": recompile the model with this runtime's IREE release, or load it with a"
                  + " runtime library of the module's release.";
          default ->
              ". The module was compiled for a device or CPU this runtime does not offer (this"
                  + " session uses driver "
                  + driver
                  + "; this JVM runs on "
                  + System.getProperty("os.arch")
                  + "). "
                  + module
                  + ". "
                  + RELEASE_RULE
                  + ", built for the target it was compiled for: recompile the model for this"
                  + " machine with this runtime's IREE release.";
        };
    return new IreeIncompatibleModuleException(
        head + advice, statusCode, reason.get(), moduleVersion);
  }
}
