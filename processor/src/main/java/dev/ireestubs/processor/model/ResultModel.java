package dev.ireestubs.processor.model;

import com.palantir.javapoet.TypeName;
import java.util.Objects;

/** How a function's raw VM results become the method's return value. */
public sealed interface ResultModel
    permits ResultModel.Void, ResultModel.Single, ResultModel.Inlined {

  /** The method's return type ({@code void} for {@link Void}). */
  TypeName javaType();

  /** The method returns {@code void}; the function has no results. */
  @SuppressWarnings("JavaLangClash") // nested: always named with its outer type
  record Void() implements ResultModel {
    @Override
    public TypeName javaType() {
      return TypeName.VOID;
    }
  }

  /**
   * One raw result, returned as is: an ndarray, a scalar, a ref or a {@code py_homogeneous_list}.
   *
   * @param javaType the method's return type
   * @param binding how the one raw result is decoded; its path is {@code "fn: result"}
   */
  record Single(TypeName javaType, ValueBinding binding) implements ResultModel {
    public Single {
      Objects.requireNonNull(javaType, "javaType");
      Objects.requireNonNull(binding, "binding");
    }
  }

  /**
   * The raw results are the children of one structure, assembled into one record, list or map:
   * either one {@code slist}/{@code stuple}/{@code sdict} result ({@link
   * dev.ireestubs.abi.FunctionSignature#hasInlinedResults()}), or several results bound to a record
   * or list, positionally. In the second case {@code binding.type()} is an {@code stuple} of the
   * declared results, made by the binder; either way the binding's children, in order, are the raw
   * results.
   *
   * @param javaType the method's return type
   * @param binding a {@link RecordBinding}, {@link ListBinding} (with a fixed size) or {@link
   *     MapBinding} (of an sdict) whose children are the raw results; paths {@code "fn:
   *     result.key"} or {@code "fn: result[i]"}
   */
  record Inlined(TypeName javaType, ValueBinding binding) implements ResultModel {
    public Inlined {
      Objects.requireNonNull(javaType, "javaType");
      Objects.requireNonNull(binding, "binding");
      if (!(binding instanceof RecordBinding)
          && !(binding instanceof ListBinding)
          && !(binding instanceof MapBinding)) {
        throw new IllegalArgumentException(
            "inlined results bind to a record, list or map: " + binding);
      }
    }
  }
}
