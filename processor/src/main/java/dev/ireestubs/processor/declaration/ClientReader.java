package dev.ireestubs.processor.declaration;

import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The declaration step of derive mode: reads each {@code @IreeClient} on a package into a {@link
 * ClientDeclaration} and reports what is wrong with its values themselves (no module or two, a name
 * that is not a Java name, a {@code module} that has no effect). Finding the module is the sources
 * step's job.
 */
public final class ClientReader {

  private final Elements elements;

  public ClientReader(Elements elements) {
    this.elements = elements;
  }

  /**
   * Every {@code @IreeClient} of {@code round}, the containers' included: by package name, then in
   * source order.
   */
  public List<ClientDeclaration> annotated(RoundEnvironment round) {
    Set<PackageElement> packages =
        new TreeSet<>(Comparator.comparing(p -> p.getQualifiedName().toString()));
    for (String name : List.of(Annotations.IREE_CLIENT, Annotations.IREE_CLIENTS)) {
      TypeElement annotation = elements.getTypeElement(name);
      if (annotation != null) {
        for (Element e : round.getElementsAnnotatedWith(annotation)) {
          if (e instanceof PackageElement packageElement) {
            packages.add(packageElement);
          }
        }
      }
    }
    List<ClientDeclaration> out = new ArrayList<>();
    for (PackageElement pkg : packages) {
      for (AnnotationMirror mirror : mirrors(pkg)) {
        out.add(read(pkg, mirror));
      }
    }
    return out;
  }

  /** Reads one {@code @IreeClient} mirror on {@code pkg}. */
  ClientDeclaration read(PackageElement pkg, AnnotationMirror mirror) {
    return new ClientDeclaration(
        pkg,
        mirror,
        Annotations.string(elements, mirror, "vmfb").trim(),
        Annotations.string(elements, mirror, "abi").trim(),
        Annotations.string(elements, mirror, "name").trim(),
        Annotations.string(elements, mirror, "module"),
        Annotations.explicitValue(mirror, "module") != null);
  }

  /**
   * Whether an interface can be derived from {@code r}'s values; reports what keeps it from it, and
   * warns of a value that has no effect.
   */
  public static boolean check(ClientDeclaration r, Reporter report) {
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

  /** The {@code @IreeClient} mirrors on {@code pkg}, the container's included, in source order. */
  static List<AnnotationMirror> mirrors(PackageElement pkg) {
    List<AnnotationMirror> out = new ArrayList<>();
    Annotations.find(pkg, Annotations.IREE_CLIENT).ifPresent(out::add);
    Optional<AnnotationMirror> container = Annotations.find(pkg, Annotations.IREE_CLIENTS);
    if (container.isPresent()) {
      AnnotationValue v = Annotations.explicitValue(container.get(), "value");
      if (v != null && v.getValue() instanceof List) {
        for (Object o : (List<?>) v.getValue()) {
          if (o instanceof AnnotationValue annotationValue
              && annotationValue.getValue() instanceof AnnotationMirror) {
            out.add((AnnotationMirror) annotationValue.getValue());
          }
        }
      }
    }
    return out;
  }
}
