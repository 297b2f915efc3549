package dev.ireestubs.invoke;

import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.SignatureComparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Binds a generated stub's functions to a loaded module, once, when the stub is created: looks
 * each function up and checks the signature the stub was compiled against against the module's
 * own calling convention and reflection, so a stale or wrong model fails at start-up with a
 * message that says what differs, not with a wrong answer later.
 */
public final class FunctionBinder {

  private FunctionBinder() {}

  /**
   * The signature a stub was compiled against, from the reflection text it embeds.
   *
   * @param attribute the reflection attribute the text came from ({@code iree.abi}, {@code
   *     iree.abi.declaration}, {@code f})
   */
  public static FunctionSignature signature(String attribute, String text) {
    try {
      return Reflection.resolve(Map.of(attribute, text), null).signature();
    } catch (IllegalArgumentException e) {
      // Only a processor and runtime-support of different versions can get here.
      throw new IreeSignatureMismatchException(
          "a generated stub's signature ("
              + attribute
              + ") does not parse with this version of iree-stubs' runtime-support: "
              + e.getMessage()
              + ". Compile the stubs with the processor of the same iree-stubs version");
    }
  }

  /**
   * The function {@code qualifiedName} of {@code backend}, after checking it against {@code
   * expected}.
   *
   * @param source where the stub's signature came from, for the message
   * @throws IreeFunctionNotFoundException when the backend has no such function
   * @return the function; when the module declares static a dimension that {@code expected}
   *     leaves dynamic, a wrapper that checks that dimension of the argument at each call (an
   *     {@link IreeArgumentException} naming the module's size, before the backend is called)
   * @throws IreeSignatureMismatchException when the module's function is called differently
   */
  public static BackendFunction bind(
      ModuleBackend backend, String qualifiedName, FunctionSignature expected, String source) {
    BackendFunction function = backend.function(qualifiedName);
    List<String> problems = new ArrayList<>();
    String callingConvention = function.callingConvention();
    if (callingConvention != null && !callingConvention.isEmpty()) {
      try {
        problems.addAll(CallingConvention.parse(callingConvention).mismatches(expected));
      } catch (IllegalArgumentException e) {
        // A calling convention this library cannot read (a newer IREE?): the reflection and the
        // calls themselves are still checked.
      }
    }
    String actualSource = "";
    Reflection.Resolved actual = null;
    if (problems.isEmpty()) {
      try {
        actual = Reflection.resolve(function.reflection(), callingConvention);
        actualSource = actual.source();
        problems.addAll(SignatureComparison.differences(expected, actual.signature()));
      } catch (IllegalArgumentException e) {
        // No reflection and no calling convention, or reflection that does not parse: nothing
        // more to compare; the calls themselves are still checked.
      }
    }
    if (!problems.isEmpty()) {
      throw new IreeSignatureMismatchException(
          qualifiedName
              + ": the stub was compiled against "
              + expected
              + " (from "
              + source
              + ") but the loaded module's function differs"
              + (actualSource.isEmpty() ? "" : " (by its " + actualSource + ")")
              + ": "
              + String.join("; ", problems)
              + ". Regenerate the stub from this module's reflection, or load the module it was"
              + " compiled for");
    }
    // Sizes the stub leaves open but the module fixes are checked at each call, before the
    // backend sees them.
    return actual == null ? function : StaticDimsCheck.wrap(function, expected, actual.signature());
  }
}
