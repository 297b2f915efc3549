package dev.ireestubs.processor;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Writes, beside a generated stub's source, the list of model files the stub was made from, so
 * that a build tool can tell that a stub is stale when a model changed but no source did (the
 * compiler alone would say "nothing to compile"). The iree-stubs Maven plugin reads these records;
 * the format is line-based text:
 *
 * <pre>
 * # comment lines
 * source &lt;binary name of the top-level type whose source declares the interface&gt;
 * stub &lt;binary name of the generated stub&gt;
 * input &lt;size in bytes&gt; &lt;last-modified time in ms&gt; &lt;absolute path&gt;
 * </pre>
 *
 * <p>The record is named {@code <stub simple name>.iree-inputs} and lives in the stub's package of
 * the generated-sources folder, which compilers and packagers ignore for anything but {@code .java}.
 */
final class InputRecord {

  /** The file name suffix build tools look for. */
  static final String SUFFIX = ".iree-inputs";

  private InputRecord() {}

  /** Writes the record of {@code stub}, generated for {@code iface}; nothing when no file was read. */
  static void write(
      Filer filer,
      Elements elements,
      TypeElement iface,
      String stubBinaryName,
      List<ReflectionLoader.Input> inputs)
      throws IOException {
    if (inputs.isEmpty()) {
      return;
    }
    PackageElement pkg = elements.getPackageOf(iface);
    String simpleStub = stubBinaryName.substring(stubBinaryName.lastIndexOf('.') + 1);
    FileObject file =
        filer.createResource(
            StandardLocation.SOURCE_OUTPUT,
            pkg.getQualifiedName().toString(),
            simpleStub + SUFFIX,
            iface);
    try (Writer out = file.openWriter()) {
      out.write(text(elements.getBinaryName(topLevel(iface)).toString(), stubBinaryName, inputs));
    }
  }

  /** The record's text. */
  static String text(String source, String stub, List<ReflectionLoader.Input> inputs) {
    StringBuilder b = new StringBuilder();
    b.append("# Written by the iree-stubs annotation processor: the files ")
        .append(stub)
        .append(" was generated from.\n")
        .append("# The iree-stubs Maven plugin recompiles ")
        .append(source)
        .append(" when one of them changes.\n")
        .append("source ")
        .append(source)
        .append('\n')
        .append("stub ")
        .append(stub)
        .append('\n');
    for (ReflectionLoader.Input input : inputs) {
      String path = input.file().toString();
      if (path.indexOf('\n') >= 0 || path.indexOf('\r') >= 0) {
        continue; // a path no line-based record can hold; such a file is not tracked
      }
      b.append("input ")
          .append(input.size())
          .append(' ')
          .append(input.lastModifiedMillis())
          .append(' ')
          .append(path)
          .append('\n');
    }
    return b.toString();
  }

  private static TypeElement topLevel(TypeElement type) {
    TypeElement top = type;
    for (Element e = type; e != null; e = e.getEnclosingElement()) {
      if (e.getKind().isClass() || e.getKind().isInterface() || e.getKind() == ElementKind.ENUM) {
        top = (TypeElement) e;
      }
    }
    return top;
  }
}
