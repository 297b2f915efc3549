package dev.ireestubs.processor.model;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import java.util.Objects;

/**
 * An ndarray as a (nested) Java array, copied in and out: {@code float[][]} for a rank-2 f32
 * ndarray. The rank was checked at compile time; dims (and raggedness) are checked at run time.
 *
 * @param type the ndarray record; always ranked, rank = {@code rank}
 * @param javaType e.g. {@code float[][]}
 * @param rank the number of array dimensions, at least 1
 * @param component the primitive element type, e.g. {@code float}
 * @param path the run-time path
 */
public record JavaArrayBinding(
    AbiType.NdArray type, ArrayTypeName javaType, int rank, TypeName component, String path)
    implements ValueBinding {
  public JavaArrayBinding {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(path, "path");
    if (rank < 1) {
      throw new IllegalArgumentException("rank must be at least 1: " + rank);
    }
  }
}
