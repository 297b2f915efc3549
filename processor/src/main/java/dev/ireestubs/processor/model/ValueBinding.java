package dev.ireestubs.processor.model;

import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;

/**
 * How one Java value maps onto one type record: the node of a marshalling plan. Paths are the
 * run-time paths of the value, {@code "predict: features.image"}, {@code "predict: pair[1]"},
 * {@code "predict: result.logits"}; an element of a list of any length has {@code [*]} for its
 * index ({@code "batch: images[*]"}).
 */
public sealed interface ValueBinding
    permits ScalarBinding,
        ArrayBinding,
        JavaArrayBinding,
        RecordBinding,
        ListBinding,
        MapBinding,
        RefBinding {

  /** The type record the value has in the module. */
  AbiType type();

  /** The Java type of the value. */
  TypeName javaType();

  /** The run-time path of the value, for error messages. */
  String path();

  /**
   * True when the value is, or holds, a Java array: a call copies it into memory of its own, which
   * the call owns and ends when it is over.
   */
  default boolean holdsJavaArray() {
    if (this instanceof JavaArrayBinding) {
      return true;
    }
    if (this instanceof ListBinding listBinding) {
      return listBinding.element().holdsJavaArray();
    }
    if (this instanceof MapBinding mapBinding) {
      return mapBinding.values().stream().anyMatch(ValueBinding::holdsJavaArray);
    }
    if (this instanceof RecordBinding recordBinding) {
      return recordBinding.components().stream().anyMatch(c -> c.binding().holdsJavaArray());
    }
    return false;
  }
}
