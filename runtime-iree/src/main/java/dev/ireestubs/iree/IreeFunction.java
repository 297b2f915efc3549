package dev.ireestubs.iree;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An exported function of a module loaded into an {@link IreeSession}: its {@code
 * iree_vm_function_t} handle, calling convention and reflection attributes as IREE's runtime
 * reports them. Calls go through the session, one at a time.
 */
final class IreeFunction implements BackendFunction {

  private final IreeSession session;
  private final String qualifiedName;
  private final MemorySegment handle;
  private final String callingConvention;
  private final CallingConvention parsed; // null when the text does not parse
  private final Map<String, String> reflection;
  private final BytecodeTypes bytecodeTypes;
  /** The argument kinds to check, or null (unknown or variadic convention): computed once. */
  private final List<VmKind> argumentKinds;
  private final boolean coarseFences;

  IreeFunction(
      IreeSession session,
      String qualifiedName,
      MemorySegment handle,
      String callingConvention,
      Map<String, String> reflection) {
    this(session, qualifiedName, handle, callingConvention, reflection, BytecodeTypes.none());
  }

  IreeFunction(
      IreeSession session,
      String qualifiedName,
      MemorySegment handle,
      String callingConvention,
      Map<String, String> reflection,
      BytecodeTypes bytecodeTypes) {
    this.session = session;
    this.qualifiedName = qualifiedName;
    this.handle = handle;
    this.callingConvention = callingConvention;
    this.parsed = parse(callingConvention);
    this.reflection = Collections.unmodifiableMap(new LinkedHashMap<>(reflection));
    this.argumentKinds =
        parsed == null || parsed.isVariadic() ? null : List.copyOf(parsed.argumentKinds());
    this.bytecodeTypes = bytecodeTypes;
    // The model a stub or dynamic call assumes: the attribute, or fences found in the bytecode.
    this.coarseFences =
        Reflection.COARSE_FENCES.equals(this.reflection.get(Reflection.MODEL))
            || bytecodeTypes
                .signature()
                .filter(s -> s.model() == FunctionSignature.CallingModel.COARSE_FENCES)
                .isPresent();
  }

  private static CallingConvention parse(String text) {
    try {
      return text.isEmpty() ? null : CallingConvention.parse(text);
    } catch (AbiParseException e) {
      return null;
    }
  }

  @Override
  public String qualifiedName() {
    return qualifiedName;
  }

  @Override
  public String callingConvention() {
    return callingConvention;
  }

  @Override
  public Map<String, String> reflection() {
    return reflection;
  }

  @Override
  public BytecodeTypes bytecodeTypes() {
    return bytecodeTypes;
  }

  /**
   * Calls the function on its session (serialised with the session's other calls). The result
   * holds values, buffer views read back into direct host memory, nested lists, and {@link
   * dev.ireestubs.vm.OpaqueRef}s for other refs (close the result list to release those).
   *
   * @throws IreeValueException (an argument) when the arguments do not fit the calling convention
   *     (count, or a value where a ref goes, or an integer where a float goes: IREE would pass 0)
   * @throws IreeInvocationException when IREE's runtime fails the call (its status code and
   *     text), or for a coarse-fences function, which this backend cannot call
   * @throws IllegalStateException when the session is closed
   */
  @Override
  public VmList invoke(VmList arguments) {
    return session.invoke(this, arguments);
  }

  MemorySegment handle() {
    return handle;
  }

  /** How many results the calling convention declares (0 when unknown). */
  int resultCount() {
    return parsed == null ? 0 : parsed.results().size();
  }

  /** True for an export of the coarse-fences model, which takes wait and signal fences. */
  boolean isCoarseFences() {
    return coarseFences;
  }

  /**
   * Refuses a coarse-fences function with a message saying what to call instead.
   *
   * @param exported the functions the session exports, to name a synchronous alternative
   */
  void checkCallable(List<String> exported) {
    if (isCoarseFences()) {
      String sync =
          qualifiedName.endsWith("$async")
              ? qualifiedName.substring(0, qualifiedName.length() - "$async".length())
              : null;
      throw new IreeInvocationException(
          qualifiedName + " uses the coarse-fences model (iree.abi.model = coarse-fences): it"
              + " takes a wait fence and a signal fence after its arguments, and this backend"
              + " does not create HAL fences (IREE's C API facts it is built on do not cover"
              + " them)"
              + (sync != null && exported.contains(sync)
                  ? "; call the synchronous export " + sync + " instead"
                  : "; call a synchronous export of the module instead"),
          (Throwable) null);
    }
  }

  /**
   * Checks the arguments against the calling convention, which IREE checks only partly (and
   * silently turns an integer passed for a float, or a float for an integer, into 0).
   */
  void checkArguments(VmList arguments) {
    List<VmKind> kinds = argumentKinds;
    if (kinds == null) {
      return;
    }
    if (arguments.size() != kinds.size()) {
      throw IreeValueException.of(
          Side.ARGUMENT,
          qualifiedName + ": arguments",
          "expected " + kinds.size() + " argument" + (kinds.size() == 1 ? "" : "s")
              + " (calling convention " + callingConvention + ") but got " + arguments.size());
    }
    for (int i = 0; i < kinds.size(); i++) {
      Object element = arguments.get(i);
      VmKind kind = kinds.get(i);
      if (kind == VmKind.REF) {
        if (element instanceof VmValue) {
          throw IreeValueException.of(
              Side.ARGUMENT,
              path(i), "expected a ref (cconv 'r') but got the value " + element);
        }
        continue;
      }
      if (!(element instanceof VmValue value)) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            path(i),
            "expected a value of cconv kind '" + kind.code() + "' but got "
                + (element == null ? "an empty slot" : element));
      }
      boolean integerSlot = kind == VmKind.I32 || kind == VmKind.I64;
      if (value.isInteger() != integerSlot) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            path(i),
            "expected " + (integerSlot ? "an integer" : "a float") + " value (cconv '"
                + kind.code() + "') but got " + value
                + "; IREE does not convert between integers and floats (it would pass 0)");
      }
    }
  }

  /** The message path of argument {@code i} (built only for an error). */
  private String path(int i) {
    return qualifiedName + ": arg" + i;
  }

  /** E.g. {@code module.add 0rr_r}. */
  @Override
  public String toString() {
    return qualifiedName + " " + callingConvention;
  }
}
