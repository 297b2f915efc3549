package dev.ireestubs.processor.model;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.AbiType;
import java.util.Objects;

/**
 * An ndarray as a typed n-d array of {@code dev.ireestubs.ndarray}: the class naming the element
 * type ({@code FloatArray} for f32), or the base {@code NdArray} for any element type. Shape and
 * element type are checked at run time; nothing is copied.
 *
 * @param type the ndarray record (element type and shape to check); for a ref of unknown type (a
 *     calling convention's {@code r}), {@link AbiType.NdArray#anyBufferView()}: only that the value
 *     is a buffer view is checked, and the array class checks its element type
 * @param arrayClass {@code dev.ireestubs.ndarray.FloatArray}, ..., or {@code NdArray}
 * @param path the run-time path
 */
public record ArrayBinding(AbiType.NdArray type, ClassName arrayClass, String path)
    implements ValueBinding {
  public ArrayBinding {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(arrayClass, "arrayClass");
    Objects.requireNonNull(path, "path");
  }

  @Override
  public ClassName javaType() {
    return arrayClass;
  }

  /** True for the base class {@code NdArray}, whose element type is checked at run time. */
  public boolean isAnyElementType() {
    return arrayClass.simpleName().equals("NdArray");
  }
}
