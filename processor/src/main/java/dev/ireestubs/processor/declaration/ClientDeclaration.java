package dev.ireestubs.processor.declaration;

import dev.ireestubs.processor.diagnostics.ElementLocation;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.PackageElement;

/**
 * One {@code @IreeClient} on a package, its values read once by {@link ClientReader}: what derive
 * mode derives an interface from.
 *
 * @param pkg the annotated package, beside whose sources the module is looked for
 * @param mirror the {@code @IreeClient} annotation
 * @param vmfb its {@code vmfb}, trimmed
 * @param abi its {@code abi}, trimmed
 * @param name its {@code name}, trimmed
 * @param module its {@code module}
 * @param moduleExplicit whether {@code module} was written
 */
public record ClientDeclaration(
    PackageElement pkg,
    AnnotationMirror mirror,
    String vmfb,
    String abi,
    String name,
    String module,
    boolean moduleExplicit) {

  /** Whether the interface is derived from a compiled module (else from a JSON module file). */
  public boolean fromVmfb() {
    return !vmfb.isEmpty();
  }

  /** The interface's simple name as written; empty: the module's name decides it. */
  public Optional<String> interfaceName() {
    return name.isEmpty() ? Optional.empty() : Optional.of(name);
  }

  /** {@code simpleName} qualified by the annotated package. */
  public String qualified(String simpleName) {
    String p = pkg.getQualifiedName().toString();
    return p.isEmpty() ? simpleName : p + "." + simpleName;
  }

  /** Where the annotation's {@code member} is written, for a diagnostic. */
  public ElementLocation at(String member) {
    return ElementLocation.of(pkg, mirror, member);
  }
}
