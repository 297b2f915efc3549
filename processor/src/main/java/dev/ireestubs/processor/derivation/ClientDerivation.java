package dev.ireestubs.processor.derivation;

import dev.ireestubs.derive.ClientDeriver;
import dev.ireestubs.derive.InterfaceSuggestion;
import dev.ireestubs.derive.InterfaceWriter;
import dev.ireestubs.processor.declaration.ClientDeclaration;
import dev.ireestubs.processor.declaration.ModuleReads;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.source.ClientSource;
import java.io.IOException;
import java.io.Writer;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.processing.Filer;
import javax.annotation.processing.FilerException;
import javax.annotation.processing.Messager;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Derive mode's last step ({@link #derive}), after the declaration ({@code ClientReader}) and the
 * sources ({@code ClientSources}): has {@link ClientDeriver} (iree-stubs-derive, shared with the
 * cli) derive the module's interface and writes its source, annotated {@code @IreeModule}, with the
 * package as its one originating element. The next round of processing checks the interface and
 * writes its stub like any other: there is no second path to a stub. What goes wrong here is
 * reported on the annotation's value.
 */
public final class ClientDerivation {

  private final Filer filer;
  private final Elements elements;
  private final String generator;

  /**
   * Derive mode writing through {@code filer}.
   *
   * @param elements the compilation's elements, to tell whether a derived name is taken
   * @param generator the processor's class name, which the derived interfaces' {@code @Generated}
   *     names
   */
  public ClientDerivation(Filer filer, Elements elements, String generator) {
    this.filer = Objects.requireNonNull(filer);
    this.elements = Objects.requireNonNull(elements);
    this.generator = Objects.requireNonNull(generator);
  }

  /**
   * Derives and writes the interface {@code r} asks for from its module {@code source}; its
   * qualified name, or empty when it could not be made (reported).
   */
  public Optional<String> derive(ClientDeclaration r, ClientSource source, Reporter report)
      throws IOException {
    InterfaceSuggestion client =
        source instanceof ClientSource.Compiled compiled
            ? ClientDeriver.derive(compiled.module(), r.vmfb(), r.interfaceName())
            : ClientDeriver.derive(
                ((ClientSource.Json) source).functions(), r.module(), r.abi(), r.interfaceName());
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
            r.at(r.fromVmfb() ? "vmfb" : "abi"));
      }
    }
    String packageName = r.pkg().getQualifiedName().toString();
    String text =
        ModuleReads.reads(elements, r.pkg(), ModuleReads.JAVA_COMPILER)
            ? InterfaceWriter.writeGenerated(client, packageName, generator)
            : InterfaceWriter.write(client, packageName); // @Generated would not compile there
    try {
      JavaFileObject file = filer.createSourceFile(qualified, r.pkg());
      try (Writer out = file.openWriter()) {
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

  /**
   * Says on {@code r}'s annotation that the interface it derived, {@code derived}, does not check
   * against its module (the errors on the interface say why).
   */
  public static void reportNotChecking(
      ClientDeclaration r, TypeElement derived, Messager messager) {
    messager.printMessage(
        Diagnostic.Kind.ERROR,
        Tag.BAD_INTERFACE.prefix()
            + "the interface "
            + derived.getQualifiedName()
            + " derived by this @IreeClient does not check against its module (see the"
            + " errors on it); please report this, and write the interface by hand"
            + " meanwhile (cli inspect --package prints it)",
        r.pkg(),
        r.mirror());
  }

  /**
   * The internal error for a failure of the processor itself while deriving {@code r}'s interface,
   * with its stack trace.
   */
  public static void reportFailure(ClientDeclaration r, Throwable e, Messager messager) {
    messager.printMessage(
        Diagnostic.Kind.ERROR,
        Tag.INTERNAL_ERROR.prefix()
            + "the iree-stubs processor failed deriving a client for package "
            + r.pkg().getQualifiedName()
            + "; please report this with the stack trace: "
            + Messages.stackTrace(e),
        r.pkg(),
        r.mirror());
  }
}
