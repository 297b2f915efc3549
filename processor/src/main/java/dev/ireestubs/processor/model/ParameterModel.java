package dev.ireestubs.processor.model;

import com.palantir.javapoet.TypeName;
import java.util.Objects;

/**
 * One method parameter bound to one root argument.
 *
 * @param javaName the parameter's name in the interface
 * @param javaType the parameter's type, as seen from the annotated interface (type variables of
 *     generic super-interfaces resolved)
 * @param path the run-time path of the argument, {@code "predict: features"}: the function name,
 *     then the {@code named} key for a named argument, else the parameter's name
 * @param binding how the value is marshalled; for a {@code named} argument, the binding of the
 *     named type (the wrapper only names the slot)
 */
public record ParameterModel(
    String javaName, TypeName javaType, String path, ValueBinding binding) {
  public ParameterModel {
    Objects.requireNonNull(javaName, "javaName");
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(binding, "binding");
  }
}
