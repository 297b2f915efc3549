package dev.ireestubs.processor;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import java.util.Locale;
import javax.lang.model.type.TypeKind;

/** {@link JavaMapping} in the compiler's terms, for tests that write interfaces. */
public final class TestMapping {
  private TestMapping() {}

  /** The primitive a scalar binds to, or null. */
  public static TypeKind primitiveFor(ElementType e) {
    return JavaMapping.scalar(e).map(TestMapping::kind).orElse(null);
  }

  /** The component of a Java array an ndarray of {@code e} binds to, or null. */
  public static TypeKind javaArrayComponentFor(ElementType e) {
    return JavaMapping.javaArrayComponent(e).map(TestMapping::kind).orElse(null);
  }

  private static TypeKind kind(Class<?> c) {
    return TypeKind.valueOf(c.getName().toUpperCase(Locale.ROOT));
  }
}
