package dev.ireestubs.invoke;

import dev.ireestubs.vm.VmList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The one implementation of {@link DynamicFunction}: encode, invoke, decode. */
final class CodecFunction implements DynamicFunction {

  private final BackendFunction function;
  private final CallCodec codec;
  private final String name;

  CodecFunction(BackendFunction function, CallCodec codec) {
    this.function = Objects.requireNonNull(function, "function");
    this.codec = Objects.requireNonNull(codec, "codec");
    this.name = shortName(function.qualifiedName());
  }

  /** {@code function} of {@code module.function}: the name messages start with. */
  private static String shortName(String qualified) {
    return qualified.substring(qualified.indexOf('.') + 1);
  }

  /** The function's name without its module: the name messages start with. */
  String name() {
    return name;
  }

  @Override
  public BackendFunction function() {
    return function;
  }

  @Override
  public CallCodec codec() {
    return codec;
  }

  @Override
  public Object call(List<?> positional, Map<String, ?> named) {
    Objects.requireNonNull(positional, "positional");
    Objects.requireNonNull(named, "named");
    VmList arguments = codec.encodeArguments(name, positional, named);
    try {
      VmList results = function.invoke(arguments);
      return codec.decodeResults(name, results);
    } finally {
      // The copies the codec made of Java arrays are the call's: freed now unless the backend
      // pins them or a decoded result holds them (an array over an argument holds its memory).
      arguments.endCall();
    }
  }

  @Override
  public String toString() {
    return function.qualifiedName() + " " + codec;
  }
}
