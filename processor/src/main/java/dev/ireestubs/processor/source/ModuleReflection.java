package dev.ireestubs.processor.source;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.diagnostics.Location;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.vmfb.VmfbModule;
import java.util.Map;
import java.util.Optional;

/**
 * The module-level reflection an {@code @IreeModule} names: its {@code iree.abi} JSON module file
 * ({@code abi}), or its compiled module ({@code vmfb}), or neither. A file that cannot be found,
 * read or parsed is reported once, here; the methods that needed it are then skipped rather than
 * reported again ({@link #failed()}).
 *
 * @param abiPath the JSON module file's resource path, or empty
 * @param functions the JSON module file's functions, when it was read
 * @param vmfbPath the compiled module's resource path, or empty
 * @param compiled the compiled module, when it was read
 * @param moduleName the module the stub looks functions up in: {@code @IreeModule(name)}, or for a
 *     compiled module without one the name compiled into it
 * @param failed true when the module's reflection was named but is not usable (reported)
 */
record ModuleReflection(
    String abiPath,
    Optional<Map<String, FunctionSignature>> functions,
    String vmfbPath,
    Optional<VmfbModule> compiled,
    String moduleName,
    boolean failed) {

  /** Reads what {@code module} names through {@code loader}, reporting what fails. */
  static ModuleReflection read(Declaration declaration, ReflectionLoader loader, Reporter report) {
    Declaration.ModuleAnnotation module = declaration.module();
    String abiPath = module.abi();
    String vmfbPath = module.vmfb();
    if (!abiPath.isEmpty() && !vmfbPath.isEmpty()) {
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeModule sets both abi = "
              + Messages.quote(abiPath)
              + " and vmfb = "
              + Messages.quote(vmfbPath)
              + ", but an interface is checked against one of them; keep vmfb (the compiled module"
              + " that runs) and remove abi, or remove vmfb to check against the JSON file",
          module.vmfbLocation());
      return new ModuleReflection(
          abiPath, Optional.empty(), vmfbPath, Optional.empty(), module.name(), true);
    }
    if (!abiPath.isEmpty()) {
      Optional<Map<String, FunctionSignature>> functions =
          Optional.ofNullable(loadJson(abiPath, declaration, loader, report));
      return new ModuleReflection(
          abiPath, functions, "", Optional.empty(), module.name(), functions.isEmpty());
    }
    if (!vmfbPath.isEmpty()) {
      Optional<VmfbModule> compiled =
          Optional.ofNullable(loadCompiled(vmfbPath, declaration, loader, report));
      String name = module.name();
      if (compiled.isPresent()) {
        String compiledName = compiled.get().name();
        if (!module.nameExplicit()) {
          // The runtime looks the functions up under the name compiled into the module.
          name = compiledName;
        } else if (!name.isBlank() && !name.equals(compiledName)) {
          report.error(
              Tag.SIGNATURE_MISMATCH,
              "@IreeModule(name = "
                  + Messages.quote(name)
                  + ") differs from the name compiled into "
                  + Messages.quote(vmfbPath)
                  + ", "
                  + Messages.quote(compiledName)
                  + ", under which a runtime that loads it finds its functions; remove name (it"
                  + " defaults to the module's) or set it to "
                  + Messages.quote(compiledName),
              module.nameLocation());
        }
      }
      return new ModuleReflection(
          "", Optional.empty(), vmfbPath, compiled, name, compiled.isEmpty());
    }
    return new ModuleReflection("", Optional.empty(), "", Optional.empty(), module.name(), false);
  }

  private static Map<String, FunctionSignature> loadJson(
      String abiPath, Declaration declaration, ReflectionLoader loader, Reporter report) {
    Location at = declaration.module().abiLocation();
    ReflectionLoader.Found found;
    try {
      found = loader.load(abiPath);
    } catch (ReflectionLoader.LoadException e) {
      report.error(
          Tag.BAD_REFLECTION,
          "reflection file "
              + Messages.quote(abiPath)
              + " of @IreeModule "
              + declaration.simpleName()
              + ": "
              + e.getMessage()
              + "; put the file in a resource folder (src/main/resources) or pass"
              + " -A"
              + ReflectionLoader.REFLECTION_DIR_OPTION
              + "=<directory>",
          at);
      return null;
    }
    try {
      return AbiJson.parseModule(found.text());
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          "reflection file "
              + Messages.quote(abiPath)
              + " ("
              + found.where()
              + ") is not a module file of iree.abi JSON: "
              + e.getMessage()
              + "; fix the file (an object mapping function names to {\"a\":[...],\"r\":[...]})",
          at);
      return null;
    }
  }

  private static VmfbModule loadCompiled(
      String vmfbPath, Declaration declaration, ReflectionLoader loader, Reporter report) {
    Location at = declaration.module().vmfbLocation();
    try {
      return loader.loadModule(vmfbPath).module();
    } catch (ReflectionLoader.LoadException e) {
      if (e.where().isPresent()) {
        String detail = e.getMessage();
        report.error(
            Tag.BAD_REFLECTION,
            "compiled module "
                + Messages.quote(vmfbPath)
                + " ("
                + e.where().get()
                + ") of @IreeModule "
                + declaration.simpleName()
                + " is not a readable IREE module: "
                + detail
                + (detail.contains("git lfs")
                    ? ""
                    : "; point vmfb at the .vmfb file the IREE compiler wrote"),
            at);
      } else {
        report.error(
            Tag.BAD_REFLECTION,
            "compiled module "
                + Messages.quote(vmfbPath)
                + " of @IreeModule "
                + declaration.simpleName()
                + ": "
                + e.getMessage()
                + "; put the file in a resource folder (src/main/resources) or pass -A"
                + ReflectionLoader.REFLECTION_DIR_OPTION
                + "=<directory>",
            at);
      }
      return null;
    }
  }
}
