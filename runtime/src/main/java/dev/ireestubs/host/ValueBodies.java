package dev.ireestubs.host;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.AbiValues;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.VmList;
import java.util.AbstractList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Adapts a {@link DynamicHostFunction} (Java values in, a Java value out) to the native-ABI bodies
 * a {@link HostModule} calls: arguments decoded by the signature, the value packed back into a
 * result list, and the argument arrays closed once the body is done with them (when it returns, or
 * for an asynchronous body when its stage completes).
 */
final class ValueBodies {

  /**
   * True where the arrays a value function was given are closed when it is done (JDK 22+): their
   * memory is then arena memory, which fails cleanly (an {@link IllegalStateException}) if the
   * function kept and uses it. Below JDK 22 freed memory would be read unchecked, so the arrays
   * stay open and their lent memory is left to the garbage collector.
   */
  private static final boolean CLOSES_ARGUMENTS = Runtime.version().feature() >= 22;

  private ValueBodies() {}

  /** {@code body} as a synchronous native-ABI body. */
  static HostFunction sync(String function, FunctionSignature signature, DynamicHostFunction body) {
    Decoder decoder = new Decoder(function, signature);
    return arguments -> {
      Arguments values = decoder.decode(arguments);
      try {
        // The result list takes over the arrays the body returns (packResults hands them over).
        return AbiValues.packResults(signature, body.call(values), function);
      } finally {
        closeArguments(values);
      }
    };
  }

  /**
   * {@code body} as an asynchronous native-ABI body: a body returning a {@link CompletionStage}
   * completes the call when the stage does (with the stage's value); any other value completes it
   * at once.
   */
  static AsyncHostFunction async(
      String function, FunctionSignature signature, DynamicHostFunction body) {
    Decoder decoder = new Decoder(function, signature);
    return arguments -> {
      Arguments values = decoder.decode(arguments);
      Object result;
      try {
        result = body.call(values);
      } catch (RuntimeException | Error e) {
        closeArguments(values);
        throw e;
      }
      CompletionStage<?> stage =
          result instanceof CompletionStage
              ? (CompletionStage<?>) result
              : CompletableFuture.completedFuture(result);
      // Packed before the arguments are closed: the value may be an argument array.
      return stage.handle(
          (value, failure) -> {
            try {
              if (failure != null) {
                throw failure instanceof CompletionException completionException
                    ? completionException
                    : new CompletionException(failure);
              }
              return AbiValues.packResults(signature, value, function);
            } finally {
              closeArguments(values);
            }
          });
    };
  }

  /** Decodes a checked argument list into Java values, with each argument's path made once. */
  private static final class Decoder {
    private final List<AbiType> declared;
    private final String[] paths;

    Decoder(String function, FunctionSignature signature) {
      declared = signature.arguments();
      paths = new String[declared.size()];
      for (int i = 0; i < paths.length; i++) {
        AbiType type = declared.get(i);
        String name = type instanceof AbiType.Named named ? named.name() : "arg" + i;
        paths[i] = function + ": " + name;
      }
    }

    Arguments decode(VmList arguments) {
      // The arguments were checked on the way in (checkArguments), so decoding cannot fail.
      Object[] values = new Object[arguments.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = AbiValues.decode(declared.get(i), arguments.get(i), paths[i]);
      }
      return new Arguments(values);
    }
  }

  /** The body's argument list: unmodifiable, over the decoded values (one object besides them). */
  private static final class Arguments extends AbstractList<Object> implements RandomAccess {
    private final Object[] values;

    Arguments(Object[] values) {
      this.values = values;
    }

    @Override
    public Object get(int index) {
      return values[index];
    }

    @Override
    public int size() {
      return values.length;
    }
  }

  private static void closeArguments(Arguments arguments) {
    if (CLOSES_ARGUMENTS) {
      for (Object value : arguments.values) { // by index: no iterator
        closeArrays(value, 0);
      }
    }
  }

  /**
   * Closes the arrays among decoded argument values (in lists and maps too) that borrow lent
   * memory: that releases their pins only, so a result that is such an argument stays valid through
   * its own view's lease. Arrays that copied heap data stay open (a result may be one).
   */
  private static void closeArrays(Object value, int depth) {
    if (value instanceof NdArray array) {
      if (array.isBorrowed()) {
        array.close();
      }
    } else if (depth < 32 && value instanceof Collection) {
      for (Object element : (Collection<?>) value) {
        closeArrays(element, depth + 1);
      }
    } else if (depth < 32 && value instanceof Map) {
      for (Object element : ((Map<?, ?>) value).values()) {
        closeArrays(element, depth + 1);
      }
    }
  }
}
