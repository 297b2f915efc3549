package dev.ireestubs.processor;

import dev.ireestubs.processor.diagnostics.ElementLocation;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.StubModel;
import java.util.HashMap;
import java.util.Map;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The stub names of one compilation: {@code Iree_<Outer>_<Inner>} can be the name of two interfaces
 * ({@code Outer_Inner} and {@code Outer.Inner} in one package), or of a type the user wrote. The
 * second claimant gets a diagnostic saying which, instead of the compiler's "attempt to recreate a
 * file".
 */
final class StubNames {

  private final Elements elements;
  private final Types types;
  private final Map<String, String> owners = new HashMap<>();

  StubNames(Elements elements, Types types) {
    this.elements = elements;
    this.types = types;
  }

  /** True when {@code model}'s stub name is free for {@code iface} (now taken); else reported. */
  boolean claim(StubModel model, TypeElement iface, Reporter report) {
    String stub = model.stubName().canonicalName();
    String interfaceName = iface.getQualifiedName().toString();
    String owner = owners.get(stub);
    if (owner == null) {
      TypeElement existing = elements.getTypeElement(stub);
      if (existing != null
          && !types.isAssignable(existing.asType(), types.erasure(iface.asType()))) {
        owner = existing.getQualifiedName().toString();
        report.error(
            Tag.BAD_INTERFACE,
            "the stub of "
                + iface.getSimpleName()
                + " would be "
                + stub
                + ", but that type exists already and is not a stub of "
                + iface.getSimpleName()
                + " (stubs are named Iree_<Outer>_<Inner> in the interface's package); rename the"
                + " interface or that type",
            ElementLocation.of(iface));
        return false;
      }
    } else if (!owner.equals(interfaceName)) {
      report.error(
          Tag.BAD_INTERFACE,
          "the stub of "
              + interfaceName
              + " would be "
              + stub
              + ", which is already the stub of "
              + owner
              + " (stubs are named Iree_<Outer>_<Inner> in the interface's package); rename one of"
              + " the interfaces",
          ElementLocation.of(iface));
      return false;
    }
    owners.put(stub, interfaceName);
    return true;
  }
}
