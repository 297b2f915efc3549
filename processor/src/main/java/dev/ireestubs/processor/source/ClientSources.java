package dev.ireestubs.processor.source;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.processor.declaration.ClientDeclaration;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import java.util.Map;
import java.util.Optional;

/**
 * The sources step of derive mode: reads the module an {@code @IreeClient} names (its {@code vmfb}
 * or its {@code abi} JSON module file), reporting on the annotation's value a file that is missing
 * or unreadable.
 */
public final class ClientSources {

  private ClientSources() {}

  /** The module {@code client} names, read through {@code loader}; empty when reported. */
  public static Optional<ClientSource> find(
      ClientDeclaration client, ReflectionLoader loader, Reporter report) {
    return client.fromVmfb() ? compiled(client, loader, report) : json(client, loader, report);
  }

  private static Optional<ClientSource> compiled(
      ClientDeclaration r, ReflectionLoader loader, Reporter report) {
    try {
      return Optional.of(new ClientSource.Compiled(loader.loadModule(r.vmfb()).module()));
    } catch (ReflectionLoader.LoadException e) {
      report.error(
          Tag.BAD_REFLECTION,
          "compiled module "
              + Messages.quote(r.vmfb())
              + " of @IreeClient"
              + e.where().map(w -> " (" + w + ") is not a readable IREE module: ").orElse(": ")
              + e.getMessage()
              + (e.where().isPresent()
                  ? "; point vmfb at the .vmfb file the IREE compiler wrote"
                  : "; put the file in a resource folder (src/main/resources) or pass -A"
                      + ReflectionLoader.REFLECTION_DIR_OPTION
                      + "=<directory>"),
          r.at("vmfb"));
      return Optional.empty();
    }
  }

  private static Optional<ClientSource> json(
      ClientDeclaration r, ReflectionLoader loader, Reporter report) {
    ReflectionLoader.Found found;
    try {
      found = loader.load(r.abi());
    } catch (ReflectionLoader.LoadException e) {
      report.error(
          Tag.BAD_REFLECTION,
          "reflection file "
              + Messages.quote(r.abi())
              + " of @IreeClient: "
              + e.getMessage()
              + "; put the file in a resource folder (src/main/resources) or pass -A"
              + ReflectionLoader.REFLECTION_DIR_OPTION
              + "=<directory>",
          r.at("abi"));
      return Optional.empty();
    }
    Map<String, FunctionSignature> functions;
    try {
      functions = AbiJson.parseModule(found.text());
    } catch (AbiParseException e) {
      report.error(
          Tag.BAD_REFLECTION,
          "reflection file "
              + Messages.quote(r.abi())
              + " ("
              + found.where()
              + ") of @IreeClient is not a module file of iree.abi JSON: "
              + e.getMessage()
              + "; fix the file (an object mapping function names to {\"a\":[...],\"r\":[...]})",
          r.at("abi"));
      return Optional.empty();
    }
    return Optional.of(new ClientSource.Json(functions));
  }
}
