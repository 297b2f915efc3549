package dev.ireestubs.processor;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.derive.ClientDeriver;
import dev.ireestubs.derive.InterfaceSuggestion;
import dev.ireestubs.derive.InterfaceWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.processing.Filer;
import javax.annotation.processing.FilerException;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.PackageElement;
import javax.lang.model.util.Elements;
import javax.tools.JavaFileObject;

/**
 * Derive mode, the step before the declaration: for one {@code @IreeClient} on a package, finds
 * the module, has {@link ClientDeriver} (iree-stubs-derive, shared with the cli) derive its interface
 * and writes that interface's source, annotated {@code @IreeModule}, with the package as its one
 * originating element. The next round of processing checks the interface and writes its stub like
 * any other: there is no second path to a stub. What goes wrong here is reported on the
 * annotation's value.
 */
final class ClientDerivation {

  /** The annotation's values, read once. */
  record Request(
      PackageElement pkg,
      AnnotationMirror mirror,
      String vmfb,
      String abi,
      String name,
      String module,
      boolean moduleExplicit) {

    String qualified(String simpleName) {
      String p = pkg.getQualifiedName().toString();
      return p.isEmpty() ? simpleName : p + "." + simpleName;
    }

    ElementLocation at(String member) {
      return ElementLocation.of(pkg, mirror, member);
    }
  }

  private final Filer filer;
  private final Elements elements;

  ClientDerivation(Filer filer, Elements elements) {
    this.filer = Objects.requireNonNull(filer);
    this.elements = Objects.requireNonNull(elements);
  }

  /** Reads one {@code @IreeClient} mirror on {@code pkg}. */
  Request request(PackageElement pkg, AnnotationMirror mirror) {
    return new Request(
        pkg,
        mirror,
        Annotations.string(elements, mirror, "vmfb").trim(),
        Annotations.string(elements, mirror, "abi").trim(),
        Annotations.string(elements, mirror, "name").trim(),
        Annotations.string(elements, mirror, "module"),
        Annotations.explicitValue(mirror, "module") != null);
  }

  /**
   * Derives and writes the interface {@code r} asks for; its qualified name, or empty when it
   * could not be made (reported).
   */
  Optional<String> derive(Request r, ReflectionLoader loader, Reporter report) throws IOException {
    if (!valid(r, report)) {
      return Optional.empty();
    }
    Optional<String> name = r.name().isEmpty() ? Optional.empty() : Optional.of(r.name());
    Optional<InterfaceSuggestion> derived =
        r.vmfb().isEmpty() ? fromJson(r, name, loader, report) : fromVmfb(r, name, loader, report);
    if (derived.isEmpty()) {
      return Optional.empty();
    }
    InterfaceSuggestion client = derived.get();
    String qualified = r.qualified(client.interfaceName());
    if (elements.getTypeElement(qualified) != null) {
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeClient derives interface "
              + qualified
              + ", but a type of that name already exists; set name = \"...\" to another name,"
              + " or remove the @IreeClient and keep the interface",
          r.at("name"));
      return Optional.empty();
    }
    for (InterfaceSuggestion.Omitted o : client.omitted()) {
      if (!o.bookkeeping()) {
        report.warning(
            Tag.UNSUPPORTED_TYPE,
            client.interfaceName()
                + " has no method for function "
                + Messages.quote(o.function())
                + ": "
                + o.reason()
                + "; call it through the dynamic invoker, or write the interface by hand",
            r.at(r.vmfb().isEmpty() ? "abi" : "vmfb"));
      }
    }
    String text =
        InterfaceWriter.writeGenerated(
            client, r.pkg().getQualifiedName().toString(), IreeStubsProcessor.class.getName());
    try {
      JavaFileObject source = filer.createSourceFile(qualified, r.pkg());
      try (Writer out = source.openWriter()) {
        out.write(text);
      }
    } catch (FilerException e) {
      report.error(
          Tag.BAD_INTERFACE,
          "cannot write interface "
              + qualified
              + " derived by @IreeClient: "
              + e.getMessage()
              + "; another @IreeClient or type of this compilation has that name; set name ="
              + " \"...\" to tell them apart",
          r.at("name"));
      return Optional.empty();
    }
    return Optional.of(qualified);
  }

  private static boolean valid(Request r, Reporter report) {
    boolean ok = true;
    if (r.vmfb().isEmpty() == r.abi().isEmpty()) {
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeClient on package "
              + r.pkg().getQualifiedName()
              + (r.vmfb().isEmpty()
                  ? " names no module; set vmfb = \"<path of the .vmfb>\" or abi = \"<path of an"
                      + " iree.abi JSON module file>\""
                  : " sets both vmfb and abi, but a client is derived from one of them; keep vmfb"
                      + " (the compiled module that runs) and remove abi"),
          r.at(r.vmfb().isEmpty() ? "vmfb" : "abi"));
      ok = false;
    }
    if (!r.name().isEmpty()
        && (!SourceVersion.isIdentifier(r.name()) || SourceVersion.isKeyword(r.name()))) {
      report.error(
          Tag.BAD_INTERFACE,
          "@IreeClient(name = "
              + Messages.quote(r.name())
              + ") is not a Java type name; set it to a simple name such as \"MobileNet\", or"
              + " remove it to name the interface after the module",
          r.at("name"));
      ok = false;
    }
    if (!r.vmfb().isEmpty() && r.moduleExplicit()) {
      report.warning(
          Tag.IGNORED_ANNOTATION,
          "@IreeClient(module = "
              + Messages.quote(r.module())
              + ") has no effect with vmfb: the runtime finds the functions under the name"
              + " compiled into the module; remove module",
          r.at("module"));
    }
    return ok;
  }

  private static Optional<InterfaceSuggestion> fromVmfb(
      Request r, Optional<String> name, ReflectionLoader loader, Reporter report) {
    try {
      return Optional.of(ClientDeriver.derive(loader.loadModule(r.vmfb()).module(), r.vmfb(), name));
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
                      + IreeStubsProcessor.REFLECTION_DIR_OPTION
                      + "=<directory>"),
          r.at("vmfb"));
      return Optional.empty();
    }
  }

  private static Optional<InterfaceSuggestion> fromJson(
      Request r, Optional<String> name, ReflectionLoader loader, Reporter report) {
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
              + IreeStubsProcessor.REFLECTION_DIR_OPTION
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
    return Optional.of(ClientDeriver.derive(functions, r.module(), r.abi(), name));
  }

  /** The {@code @IreeClient} mirrors on {@code pkg}, the container's included, in source order. */
  static List<AnnotationMirror> mirrors(PackageElement pkg) {
    List<AnnotationMirror> out = new ArrayList<>();
    Annotations.find(pkg, Annotations.IREE_CLIENT).ifPresent(out::add);
    Optional<AnnotationMirror> container = Annotations.find(pkg, Annotations.IREE_CLIENTS);
    if (container.isPresent()) {
      AnnotationValue v = Annotations.explicitValue(container.get(), "value");
      if (v != null && v.getValue() instanceof List) {
        for (Object o : (List<?>) v.getValue()) {
          if (o instanceof AnnotationValue && ((AnnotationValue) o).getValue() instanceof AnnotationMirror) {
            out.add((AnnotationMirror) ((AnnotationValue) o).getValue());
          }
        }
      }
    }
    return out;
  }
}
