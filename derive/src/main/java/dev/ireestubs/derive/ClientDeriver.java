package dev.ireestubs.derive;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.vmfb.HalRequirement;
import dev.ireestubs.vmfb.RuntimeGeneration;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Derives the whole Java interface of a module: the one place that decides which exports become
 * methods, used by the annotation processor's derive mode ({@code @IreeClient}) and by the cli's
 * {@code inspect}, so both print the same client.
 *
 * <p>Names starting with {@code __} ({@code __init}) are IREE's own exports, called by the runtime
 * when it loads the module: they get no method. A function of the coarse-fences model (by its
 * reflection, or {@code f$async} by IREE's naming: see {@link CoarseFences}) gets an asynchronous
 * method returning a {@code CompletableFuture}, named {@code fAsync}, beside the synchronous {@code
 * f} of its wrapper when the module exports one.
 */
public final class ClientDeriver {

  /** Export names starting with this are IREE's own, e.g. {@code __init}. */
  public static final String RESERVED_PREFIX = "__";

  /** The suffix of an asynchronous twin export ({@link CoarseFences#ASYNC_SUFFIX}). */
  public static final String ASYNC_SUFFIX = CoarseFences.ASYNC_SUFFIX;

  private ClientDeriver() {}

  /**
   * The interface of compiled module {@code module}.
   *
   * @param vmfbPath the path {@code @IreeModule(vmfb = ...)} names it by
   * @param interfaceName the interface's simple name; empty: the module's name in PascalCase
   * @param module the module as {@link dev.ireestubs.vmfb.VmfbReader} read it
   * @return one method per export a Java method can bind, and the exports left out with the reason
   */
  public static InterfaceSuggestion derive(
      VmfbModule module, String vmfbPath, Optional<String> interfaceName) {
    Objects.requireNonNull(module, "module");
    InterfaceSuggester suggester =
        new InterfaceSuggester(
            module.name(), InterfaceSuggestion.Source.vmfb(vmfbPath), interfaceName);
    suggester.note(runtimeNote(module.halRequirement()));
    Set<String> names = new HashSet<>();
    module.exports().forEach(e -> names.add(e.name()));
    for (VmfbExport e : module.exports()) {
      if (bookkeeping(e.name(), suggester)) {
        continue;
      }
      Reflection.Resolved resolved;
      try {
        resolved = e.signature();
      } catch (IllegalArgumentException | IllegalStateException ex) {
        // No reflection and no calling convention, malformed reflection, or variadic.
        suggester.omit(e.name(), "no usable signature: " + ex.getMessage(), false);
        continue;
      }
      Optional<Declaration> declaration = Optional.empty();
      if (resolved.source().equals(Reflection.DECLARATION)) {
        // It parsed when the signature was resolved, so it parses again.
        declaration = e.declaration().map(Declaration::parse);
      }
      List<String> notes = new ArrayList<>(resolved.warnings());
      boolean fences = e.abiModel().filter(Reflection.COARSE_FENCES::equals).isPresent();
      FunctionSignature signature = resolved.signature();
      if (fences && signature.model() == FunctionSignature.CallingModel.SYNC) {
        notes.add(
            "iree.abi.model = coarse-fences, but only the calling convention describes it: its"
                + " last two refs are the wait and signal fences.");
      }
      suggester.function(
          e.name(), signature, resolved.source(), reflectionText(e, resolved), declaration, notes);
    }
    return suggester.build();
  }

  /**
   * The interface of an {@code iree.abi} JSON module file.
   *
   * @param functions each function's signature, as {@link AbiJson#parseModule} reads them
   * @param moduleName the module name the functions are looked up under at run time
   * @param abiPath the path {@code @IreeModule(abi = ...)} names the file by
   * @param interfaceName the interface's simple name; empty: the module's name in PascalCase
   * @return one method per function a Java method can bind, and the functions left out with the
   *     reason
   */
  public static InterfaceSuggestion derive(
      Map<String, FunctionSignature> functions,
      String moduleName,
      String abiPath,
      Optional<String> interfaceName) {
    Objects.requireNonNull(functions, "functions");
    InterfaceSuggester suggester =
        new InterfaceSuggester(moduleName, InterfaceSuggestion.Source.abi(abiPath), interfaceName);
    for (Map.Entry<String, FunctionSignature> f : functions.entrySet()) {
      if (bookkeeping(f.getKey(), suggester)) {
        continue;
      }
      suggester.function(
          f.getKey(),
          f.getValue(),
          Reflection.IREE_ABI,
          AbiJson.print(f.getValue()),
          Optional.empty(),
          List.of());
    }
    return suggester.build();
  }

  /**
   * The sentence of a derived interface's Javadoc that says which IREE runtimes load its module,
   * e.g. {@code Compiled for IREE 3.12+ (hal 0.7): an IREE runtime of the other generation refuses
   * the module.}
   *
   * @param requirement what the module requires of IREE's HAL module
   * @return one sentence
   */
  public static String runtimeNote(HalRequirement requirement) {
    RuntimeGeneration g = requirement.generation();
    if (g == RuntimeGeneration.IREE_3_11_AND_EARLIER
        || g == RuntimeGeneration.IREE_3_12_AND_LATER) {
      return "Compiled for "
          + requirement.describe()
          + ": an IREE runtime of the other generation refuses the module.";
    }
    return "Runtime generation: " + requirement.describe() + ".";
  }

  /** Omits {@code name} when it is one of IREE's own exports; true when it did. */
  private static boolean bookkeeping(String name, InterfaceSuggester suggester) {
    if (name.startsWith(RESERVED_PREFIX)) {
      suggester.omit(
          name,
          "names starting with __ are IREE's own (the runtime calls __init itself when it loads"
              + " the module)",
          true);
      return true;
    }
    return false;
  }

  /** The reflection text the module states for the export, quoted in the method's Javadoc. */
  private static String reflectionText(VmfbExport e, Reflection.Resolved resolved) {
    String cconv = "calling convention " + e.callingConvention().orElse("(none)");
    if (resolved.signature().format() == ReflectionFormat.CALLING_CONVENTION) {
      return cconv;
    }
    if (resolved.source().equals(Reflection.DECLARATION) && e.declaration().isPresent()) {
      return e.declaration().get();
    }
    if (resolved.source().equals(Reflection.IREE_ABI) && e.abiJson().isPresent()) {
      return e.abiJson().get();
    }
    return resolved.signature() + " (" + resolved.source() + "; " + cconv + ")";
  }
}
