package dev.ireestubs.abi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether an exported function takes IREE's wait and signal fences after its arguments (the
 * coarse-fences model, {@link FunctionSignature.CallingModel#COARSE_FENCES}): the one rule every
 * consumer in iree-stubs applies (stubs when they bind, the processor, derive mode and {@code
 * inspect}, host-module fakes, the dynamic invoker, the IREE runtime backend).
 *
 * <p>A function is coarse-fences when its reflection says so ({@code iree.abi.model =
 * "coarse-fences"}, or an {@code async} declaration), or, for the many modules that carry no
 * reflection (torch and ONNX imports), by IREE's own naming of the asynchronous twin: its name ends
 * in {@value #ASYNC_SUFFIX} and its calling convention ends in two refs (the fences), as {@code
 * tf2onnx$async} ({@code 0rrr_r}) beside its synchronous wrapper {@code tf2onnx} ({@code 0r_r}). An
 * {@code iree.abi.model} the module states decides over the name, and a calling convention that
 * does not end in two refs cannot take fences, whatever the reflection says.
 */
public final class CoarseFences {

  /** The suffix IREE gives the asynchronous twin {@code f$async} of a function {@code f}. */
  public static final String ASYNC_SUFFIX = "$async";

  private CoarseFences() {}

  /**
   * Whether the export {@code name} takes a wait and a signal fence after its arguments.
   *
   * @param name the function's name within its module ({@code tf2onnx$async}), or a qualified name
   *     ({@code module.tf2onnx$async}); null when unknown
   * @param attributes the function's reflection attributes
   * @param callingConvention its calling convention, or null or empty when unknown
   * @return true by reflection ({@code iree.abi.model}, an {@code async} declaration) or by the
   *     naming rule
   */
  public static boolean applies(
      String name, Map<String, String> attributes, String callingConvention) {
    return applies(name, attributes, callingConvention, BytecodeTypes.none());
  }

  /**
   * Whether the export {@code name} takes a wait and a signal fence after its arguments, its
   * bytecode's types included (bytecode that finds the fences says so whatever the name).
   *
   * @param name the function's name within its module, or a qualified name; null when unknown
   * @param attributes the function's reflection attributes
   * @param callingConvention its calling convention, or null or empty when unknown
   * @param bytecode what the function's bytecode says of its types
   * @return true by reflection, by the bytecode, or by the naming rule
   */
  public static boolean applies(
      String name,
      Map<String, String> attributes,
      String callingConvention,
      BytecodeTypes bytecode) {
    Objects.requireNonNull(attributes, "attributes");
    boolean model;
    try {
      model =
          resolve(name, attributes, callingConvention, bytecode).signature().model()
              == FunctionSignature.CallingModel.COARSE_FENCES;
    } catch (IllegalArgumentException e) {
      // No usable signature (malformed reflection, nothing at all): what the attributes state.
      String stated = attributes.get(Reflection.MODEL);
      model =
          stated != null
              ? Reflection.COARSE_FENCES.equals(stated)
              : byName(name, callingConvention);
    }
    // A calling convention that does not end in two refs cannot take the fences, whatever the
    // reflection says.
    return model
        && (callingConvention == null
            || callingConvention.isEmpty()
            || endsInTwoRefs(callingConvention));
  }

  /**
   * The attributes {@link Reflection#resolve} reads for the export {@code name}: {@code attributes}
   * themselves, plus {@code iree.abi.model = coarse-fences} when IREE's naming of the twin (see the
   * class comment) says the function takes fences and its reflection states no model (no {@code
   * iree.abi.model}, no declaration that parses), so that the signature resolved from them has the
   * coarse-fences model and its arguments exclude the fences.
   *
   * @param name the function's name, or a qualified name; null when unknown
   * @param attributes the function's reflection attributes as the module carries them
   * @param callingConvention its calling convention, or null or empty when unknown
   * @return {@code attributes}, or an unmodifiable copy with the model added
   */
  public static Map<String, String> attributes(
      String name, Map<String, String> attributes, String callingConvention) {
    Objects.requireNonNull(attributes, "attributes");
    if (attributes.containsKey(Reflection.MODEL)
        || statesItsModel(attributes.get(Reflection.DECLARATION))
        || !byName(name, callingConvention)) {
      return attributes;
    }
    Map<String, String> withModel = new LinkedHashMap<>(attributes);
    withModel.put(Reflection.MODEL, Reflection.COARSE_FENCES);
    return java.util.Collections.unmodifiableMap(withModel);
  }

  /**
   * The best signature of the export {@code name}: {@link Reflection#resolve} of its {@link
   * #attributes attributes with the naming rule applied}.
   *
   * @param name the function's name, or a qualified name; null when unknown
   * @param attributes the function's reflection attributes as the module carries them
   * @param callingConvention its calling convention, or null when unknown
   * @return what {@link Reflection#resolve} returns
   * @throws AbiParseException as {@link Reflection#resolve} does
   * @throws IllegalArgumentException as {@link Reflection#resolve} does
   */
  public static Reflection.Resolved resolve(
      String name, Map<String, String> attributes, String callingConvention) {
    return resolve(name, attributes, callingConvention, BytecodeTypes.none());
  }

  /**
   * The best signature of the export {@code name}, its bytecode's types included: {@link
   * Reflection#resolve(Map, String, BytecodeTypes)} of its {@link #attributes attributes with the
   * naming rule applied}. Bytecode that finds the fences itself gives the coarse-fences model
   * whatever the name.
   *
   * @param name the function's name, or a qualified name; null when unknown
   * @param attributes the function's reflection attributes as the module carries them
   * @param callingConvention its calling convention, or null when unknown
   * @param bytecode what the function's bytecode says of its types
   * @return what {@link Reflection#resolve(Map, String, BytecodeTypes)} returns
   * @throws AbiParseException as {@link Reflection#resolve} does
   * @throws IllegalArgumentException as {@link Reflection#resolve} does
   */
  public static Reflection.Resolved resolve(
      String name,
      Map<String, String> attributes,
      String callingConvention,
      BytecodeTypes bytecode) {
    return Reflection.resolve(
        attributes(name, attributes, callingConvention), callingConvention, bytecode);
  }

  /**
   * The name of the asynchronous twin of {@code function}: {@code f} gives {@code f$async}.
   *
   * @param function a function's name
   * @return the name with {@value #ASYNC_SUFFIX} appended
   */
  public static String asyncName(String function) {
    return function + ASYNC_SUFFIX;
  }

  /**
   * The synchronous function whose twin {@code function} is by its name: {@code f$async} gives
   * {@code f}.
   *
   * @param function a function's name
   * @return the name without {@value #ASYNC_SUFFIX}, or empty when it does not end in it (or is
   *     only the suffix)
   */
  public static Optional<String> syncName(String function) {
    if (function == null
        || !function.endsWith(ASYNC_SUFFIX)
        || function.length() == ASYNC_SUFFIX.length()) {
      return Optional.empty();
    }
    return Optional.of(function.substring(0, function.length() - ASYNC_SUFFIX.length()));
  }

  /** IREE's naming of the twin: {@code f$async} whose calling convention ends in two refs. */
  private static boolean byName(String name, String callingConvention) {
    return syncName(name).isPresent()
        && callingConvention != null
        && !callingConvention.isEmpty()
        && endsInTwoRefs(callingConvention);
  }

  /** Whether {@code callingConvention} parses and its last two arguments are refs. */
  private static boolean endsInTwoRefs(String callingConvention) {
    CallingConvention cconv;
    try {
      cconv = CallingConvention.parse(callingConvention);
    } catch (AbiParseException e) {
      return false;
    }
    if (cconv.isVariadic()) {
      return false;
    }
    int n = cconv.argumentKinds().size();
    return n >= 2
        && cconv.argumentKinds().get(n - 2) == VmKind.REF
        && cconv.argumentKinds().get(n - 1) == VmKind.REF;
  }

  /** Whether {@code declaration} parses, and so states sync or async itself. */
  private static boolean statesItsModel(String declaration) {
    if (declaration == null) {
      return false;
    }
    try {
      Declaration.parse(declaration);
      return true;
    } catch (AbiParseException e) {
      return false; // the calling convention is used instead, and the name may say async
    }
  }
}
