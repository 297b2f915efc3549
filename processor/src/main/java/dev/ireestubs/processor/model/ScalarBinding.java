package dev.ireestubs.processor.model;

import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import java.util.Objects;

/**
 * A scalar VM value as a Java primitive or its box: {@code i8 i16 i32 i64 f32 f64 i1} as {@code
 * byte short int long float double boolean}.
 *
 * @param type the scalar
 * @param javaType the primitive, or the box when {@code boxed}
 * @param boxed true for {@code Integer} and friends (a null is an argument error at run time)
 * @param path the run-time path
 */
public record ScalarBinding(AbiType.Scalar type, TypeName javaType, boolean boxed, String path)
    implements ValueBinding {
  public ScalarBinding {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(path, "path");
  }
}
