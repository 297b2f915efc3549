package dev.ireestubs.processor.writing;

import dev.ireestubs.abi.ElementType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The public constants of {@link ElementType}, by value: how generated code names an element type.
 */
final class ElementConstants {

  private static final Map<ElementType, String> NAMES = names();

  private ElementConstants() {}

  /** {@code "F32"} for {@code f32}; empty for a type with no constant ({@code i3}). */
  static Optional<String> nameOf(ElementType e) {
    return Optional.ofNullable(NAMES.get(e));
  }

  /** The part type of a complex element type: {@code f16} for {@code complex<f16>}. */
  static ElementType complexPart(ElementType complex) {
    String name = complex.mlirName();
    String part = name.substring(name.indexOf('<') + 1, name.length() - 1);
    for (ElementType e : NAMES.keySet()) {
      if (e.mlirName().equals(part)) {
        return e;
      }
    }
    throw new IllegalArgumentException("no part type for " + complex);
  }

  private static Map<ElementType, String> names() {
    Map<ElementType, String> out = new HashMap<>();
    for (Field field : ElementType.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == ElementType.class) {
        try {
          out.putIfAbsent((ElementType) field.get(null), field.getName());
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return out;
  }
}
