package dev.ireestubs.processor.model;

import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import java.util.Objects;

/**
 * A {@code py_homogeneous_list} (any length), or an {@code slist}/{@code stuple} whose elements all
 * have one type record (a fixed length), as {@code java.util.List<T>}.
 *
 * @param type an {@link AbiType.HomogeneousList} or a uniform {@link AbiType.Sequence}
 * @param javaType {@code List<T>}
 * @param element the binding of every element; its path ends in {@code [*]}
 * @param fixedSize the sequence's length, or -1 for a homogeneous list of any length
 * @param path the run-time path
 */
public record ListBinding(
    AbiType type, TypeName javaType, ValueBinding element, int fixedSize, String path)
    implements ValueBinding {
  public ListBinding {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(element, "element");
    Objects.requireNonNull(path, "path");
    if (type instanceof AbiType.HomogeneousList) {
      if (fixedSize != -1) {
        throw new IllegalArgumentException("a homogeneous list has no fixed size: " + fixedSize);
      }
    } else if (type instanceof AbiType.Sequence sequence) {
      if (fixedSize != sequence.elements().size()) {
        throw new IllegalArgumentException("fixedSize " + fixedSize + " differs from " + type);
      }
    } else {
      throw new IllegalArgumentException("a List binds a list or sequence: " + type);
    }
  }
}
