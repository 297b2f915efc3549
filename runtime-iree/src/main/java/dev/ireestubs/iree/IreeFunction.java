package dev.ireestubs.iree;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An exported function as one IREE session found it: its {@code iree_vm_function_t} handle (valid
 * in that session), calling convention and reflection attributes as IREE's runtime reports them,
 * and the checks of a call's arguments against them. Knows no session: the engine's {@code
 * BackendFunction} ({@link Engine}) holds one per session and calls through the session's {@link
 * CallPath}.
 */
final class IreeFunction {

  private final String qualifiedName;
  private final MemorySegment handle;
  private final String callingConvention;
  private final CallingConvention parsed; // null when the text does not parse
  private final Map<String, String> reflection;
  private final BytecodeTypes bytecodeTypes;
  private final Optional<String> yields;

  /** The argument kinds to check, or null (unknown or variadic convention): computed once. */
  private final List<VmKind> argumentKinds;

  private final boolean coarseFences;

  IreeFunction(
      String qualifiedName,
      MemorySegment handle,
      String callingConvention,
      Map<String, String> reflection) {
    this(qualifiedName, handle, callingConvention, reflection, BytecodeTypes.none());
  }

  IreeFunction(
      String qualifiedName,
      MemorySegment handle,
      String callingConvention,
      Map<String, String> reflection,
      BytecodeTypes bytecodeTypes) {
    this(qualifiedName, handle, callingConvention, reflection, bytecodeTypes, Optional.empty());
  }

  /**
   * @param yields where the function's calls reach a {@code vm.yield} ({@link
   *     FunctionAttributes#yieldReason}); empty when they reach none
   */
  IreeFunction(
      String qualifiedName,
      MemorySegment handle,
      String callingConvention,
      Map<String, String> reflection,
      BytecodeTypes bytecodeTypes,
      Optional<String> yields) {
    this.qualifiedName = qualifiedName;
    this.yields = yields;
    this.handle = handle;
    this.callingConvention = callingConvention;
    this.parsed = parse(callingConvention);
    this.reflection = Collections.unmodifiableMap(new LinkedHashMap<>(reflection));
    this.bytecodeTypes = bytecodeTypes;
    this.coarseFences =
        CoarseFences.applies(qualifiedName, this.reflection, callingConvention, bytecodeTypes);
    this.argumentKinds = argumentKinds(parsed, coarseFences);
  }

  /** The kinds of the arguments a caller passes: the fences of coarse-fences are the backend's. */
  private static List<VmKind> argumentKinds(CallingConvention parsed, boolean coarseFences) {
    if (parsed == null || parsed.isVariadic()) {
      return null;
    }
    List<VmKind> kinds = parsed.argumentKinds();
    if (coarseFences) {
      kinds = kinds.subList(0, Math.max(0, kinds.size() - 2));
    }
    return List.copyOf(kinds);
  }

  private static CallingConvention parse(String text) {
    try {
      return text.isEmpty() ? null : CallingConvention.parse(text);
    } catch (AbiParseException e) {
      return null;
    }
  }

  String qualifiedName() {
    return qualifiedName;
  }

  String callingConvention() {
    return callingConvention;
  }

  Map<String, String> reflection() {
    return reflection;
  }

  BytecodeTypes bytecodeTypes() {
    return bytecodeTypes;
  }

  MemorySegment handle() {
    return handle;
  }

  /** How many results the calling convention declares (0 when unknown). */
  int resultCount() {
    return parsed == null ? 0 : parsed.results().size();
  }

  /**
   * True for an export of the coarse-fences model, which takes wait and signal fences (by its
   * reflection or, as an {@code f$async} twin, by its name: {@link CoarseFences}).
   */
  boolean isCoarseFences() {
    return coarseFences;
  }

  /**
   * Why this function cannot be called asynchronously: it takes no fences.
   *
   * @param exported the functions the session exports, to name the asynchronous twin
   */
  String notAsync(List<String> exported) {
    String twin = CoarseFences.asyncName(qualifiedName);
    return qualifiedName
        + " (calling convention "
        + callingConvention
        + ") takes no wait and"
        + " signal fences, so it cannot be called asynchronously: IREE runs it to the end inside"
        + " the call"
        + (exported.contains(twin)
            ? "; call its asynchronous twin " + twin + " instead"
            : "; call it synchronously, or an asynchronous (coarse-fences) export of the module");
  }

  /** Whether the function's calls may reach a {@code vm.yield}: then IREE cannot run it. */
  boolean yields() {
    return yields.isPresent();
  }

  /**
   * Why this function is not called: it may run {@code vm.yield}, and IREE's runtime would spin on
   * the call forever (see docs/iree-runtime.md, "Functions that yield").
   */
  String yieldRefusal() {
    return qualifiedName
        + " (calling convention "
        + callingConvention
        + ") may run vm.yield ("
        + yields.orElse("")
        + "), and IREE's runtime cannot run a function that yields: iree_vm_invoke, which runs"
        + " every call of this backend, synchronous or asynchronous, resumes a suspended call only"
        + " after a wait (hal.fence.await), so after a plain yield it would spin forever on the"
        + " calling thread (iree_vm_async_invoke spins the same way; IREE 3.11 and 3.12). The call"
        + " was refused before it reached IREE: write the function without vm.yield (a function"
        + " that waits for device work awaits a fence with hal.fence.await, as functions compiled"
        + " by iree-compile do)";
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
          "expected "
              + kinds.size()
              + " argument"
              + (kinds.size() == 1 ? "" : "s")
              + " (calling convention "
              + callingConvention
              + (coarseFences ? ", whose last two refs are the fences the backend passes" : "")
              + ") but got "
              + arguments.size());
    }
    for (int i = 0; i < kinds.size(); i++) {
      Object element = arguments.get(i);
      VmKind kind = kinds.get(i);
      if (kind == VmKind.REF) {
        if (element instanceof VmValue) {
          throw IreeValueException.of(
              Side.ARGUMENT, path(i), "expected a ref (cconv 'r') but got the value " + element);
        }
        continue;
      }
      if (!(element instanceof VmValue value)) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            path(i),
            "expected a value of cconv kind '"
                + kind.code()
                + "' but got "
                + (element == null ? "an empty slot" : element));
      }
      boolean integerSlot = kind == VmKind.I32 || kind == VmKind.I64;
      if (value.isInteger() != integerSlot) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            path(i),
            "expected "
                + (integerSlot ? "an integer" : "a float")
                + " value (cconv '"
                + kind.code()
                + "') but got "
                + value
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
