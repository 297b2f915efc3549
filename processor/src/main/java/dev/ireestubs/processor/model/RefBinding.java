package dev.ireestubs.processor.model;

import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import java.util.Objects;

/**
 * An opaque value as {@code dev.ireestubs.vm.VmRef} or a subtype ({@code BufferView}, {@code
 * VmList}, ...): JSON {@code null} ({@link AbiType.Any}), {@code "unknown"} ({@link
 * AbiType.Unknown}) or a typed ref ({@link AbiType.Ref}). A subtype is cast-checked at run time.
 *
 * @param type the type record
 * @param javaType {@code VmRef} or the subtype
 * @param path the run-time path
 */
public record RefBinding(AbiType type, TypeName javaType, String path) implements ValueBinding {
  public RefBinding {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(path, "path");
  }
}
