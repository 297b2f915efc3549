package dev.ireestubs.abi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Chooses the best signature among a function's reflection attributes, the way every consumer in
 * iree-stubs does (the processor, the dynamic invoker, host modules, the {@code .vmfb} reader):
 *
 * <ol>
 *   <li>{@code iree.abi} JSON (with {@code iree.abi.model = "coarse-fences"} applied);
 *   <li>else {@code iree.abi.declaration}; a declaration that does not parse is skipped with a
 *       warning, because IREE writes it for people rather than machines;
 *   <li>else the V0 raw signature {@code f};
 *   <li>else the types the function's bytecode states ({@link BytecodeTypes}), when it was read and
 *       types something; when it could not be read, a warning says why;
 *   <li>else the calling convention alone, which still fixes the arity and value/ref kinds.
 * </ol>
 *
 * <p>{@code iree.abi.model = coarse-fences} applies whatever the source: the signature's model is
 * then {@link FunctionSignature.CallingModel#COARSE_FENCES} and its arguments are the described
 * ones only (for a calling convention, all but the trailing wait and signal fences).
 */
public final class Reflection {

  /** The {@code iree.abi} JSON attribute. */
  public static final String IREE_ABI = "iree.abi";

  /** The {@code iree.abi.declaration} attribute. */
  public static final String DECLARATION = "iree.abi.declaration";

  /** The {@code iree.abi.model} attribute; {@code coarse-fences} adds wait/signal fences. */
  public static final String MODEL = "iree.abi.model";

  /** The value of {@link #MODEL} for functions that take wait and signal fences. */
  public static final String COARSE_FENCES = "coarse-fences";

  private Reflection() {}

  /**
   * The signature and where it came from.
   *
   * @param signature the best signature found
   * @param source the attribute it was read from ({@code iree.abi}, {@code iree.abi.declaration},
   *     {@code f}), {@code "bytecode"} or {@code "calling convention"}
   * @param warnings better reflection that was present but could not be used, one sentence each
   */
  public record Resolved(FunctionSignature signature, String source, List<String> warnings) {
    /**
     * Refuses nulls and copies the warnings.
     *
     * @param signature the best signature found
     * @param source the attribute it was read from ({@code iree.abi}, {@code iree.abi.declaration},
     *     {@code f}), {@code "bytecode"} or {@code "calling convention"}
     * @param warnings better reflection that was present but could not be used, one sentence each
     */
    public Resolved {
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(source, "source");
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * Reflection attributes for one text: {@code iree.abi} JSON when it starts with <code>{</code>,
   * else an {@code iree.abi.declaration}.
   *
   * @param reflection one reflection text
   * @return a one-entry map from its attribute to the text
   */
  public static Map<String, String> attributesOf(String reflection) {
    Objects.requireNonNull(reflection, "reflection");
    return Map.of(attributeOf(reflection), reflection);
  }

  /**
   * The attribute a reflection text belongs to, by its first characters: {@code iree.abi} for
   * <code>{</code>, V0's {@code f} for {@code I<digits>!}, else {@code iree.abi.declaration}.
   *
   * @param reflection one reflection text
   * @return the attribute's name
   */
  public static String attributeOf(String reflection) {
    String s = reflection.strip();
    if (s.startsWith("{")) {
      return IREE_ABI;
    }
    if (V0_RAW_START.matcher(s).lookingAt()) {
      return V0Reflection.RAW_KEY;
    }
    return DECLARATION;
  }

  private static final java.util.regex.Pattern V0_RAW_START =
      java.util.regex.Pattern.compile("I[0-9]+!");

  /**
   * Parses one reflection text a person wrote or chose (an annotation, a host function): {@code
   * iree.abi} JSON when it starts with <code>{</code>, a V0 raw signature when it starts with
   * {@code I<length>!}, else an {@code iree.abi.declaration}. Unlike {@link #resolve}, a
   * declaration that does not parse is an error, not a fallback.
   *
   * @param reflection one reflection text
   * @return the signature it states
   * @throws AbiParseException naming the format and the position
   */
  public static FunctionSignature parse(String reflection) {
    Objects.requireNonNull(reflection, "reflection");
    return switch (attributeOf(reflection)) {
      case IREE_ABI -> AbiJson.parseFunction(reflection);
      case V0Reflection.RAW_KEY -> V0RawSignature.parse(reflection.strip());
      default -> Declaration.parse(reflection).toSignature();
    };
  }

  /**
   * The best signature in {@code attributes}.
   *
   * @param callingConvention the function's calling convention, or null when unknown
   * @param attributes one function's reflection attributes
   * @return the signature, which attribute it came from, and warnings about attributes skipped
   * @throws AbiParseException when {@code iree.abi} JSON, the V0 signature or the calling
   *     convention is malformed, or when the calling convention it falls back to is variadic
   *     ({@code C...D}, imports only), which describes no fixed argument list
   * @throws IllegalArgumentException when there is no usable reflection and no calling convention
   */
  public static Resolved resolve(Map<String, String> attributes, String callingConvention) {
    return resolve(attributes, callingConvention, BytecodeTypes.none());
  }

  /**
   * The best signature in {@code attributes} and the function's bytecode: as {@link #resolve(Map,
   * String)}, with the bytecode's types ranked after V0 {@code f} and before the calling
   * convention. Bytecode that could not be read adds a warning when the calling convention is used
   * instead.
   *
   * @param attributes one function's reflection attributes
   * @param callingConvention the function's calling convention, or null when unknown
   * @param bytecode what the function's bytecode says of its types
   * @return the signature, which source it came from, and warnings about sources skipped
   * @throws AbiParseException as {@link #resolve(Map, String)}
   * @throws IllegalArgumentException as {@link #resolve(Map, String)}
   */
  public static Resolved resolve(
      Map<String, String> attributes, String callingConvention, BytecodeTypes bytecode) {
    Objects.requireNonNull(attributes, "attributes");
    Objects.requireNonNull(bytecode, "bytecode");
    List<String> warnings = new ArrayList<>();
    boolean fences = COARSE_FENCES.equals(attributes.get(MODEL));
    String json = attributes.get(IREE_ABI);
    if (json != null) {
      FunctionSignature s = AbiJson.parseFunction(json);
      return new Resolved(
          fences ? s.withModel(FunctionSignature.CallingModel.COARSE_FENCES) : s,
          IREE_ABI,
          warnings);
    }
    String declaration = attributes.get(DECLARATION);
    if (declaration != null) {
      try {
        FunctionSignature s = Declaration.parse(declaration).toSignature();
        return new Resolved(
            fences ? s.withModel(FunctionSignature.CallingModel.COARSE_FENCES) : s,
            DECLARATION,
            warnings);
      } catch (AbiParseException e) {
        warnings.add(
            "the iree.abi.declaration does not parse (" + e.getMessage() + "); it was ignored");
      }
    }
    Optional<V0Reflection> v0 = V0Reflection.from(attributes);
    if (v0.isPresent() && v0.get().raw().isPresent()) {
      return new Resolved(v0.get().raw().get(), V0Reflection.RAW_KEY, warnings);
    }
    if (bytecode.signature().isPresent()) {
      return new Resolved(
          withFences(bytecode.signature().get(), fences, warnings),
          ReflectionFormat.BYTECODE.displayName(),
          warnings);
    }
    bytecode
        .problem()
        .ifPresent(p -> warnings.add("its bytecode could not be read for types (" + p + ")"));
    if (callingConvention != null && !callingConvention.isEmpty()) {
      return new Resolved(
          fromCallingConvention(callingConvention, fences, warnings),
          ReflectionFormat.CALLING_CONVENTION.displayName(),
          warnings);
    }
    throw new IllegalArgumentException(
        "no usable reflection among the attributes "
            + attributes.keySet()
            + " (iree.abi, iree.abi.declaration or f) and no calling convention"
            + (warnings.isEmpty() ? "" : "; " + String.join("; ", warnings)));
  }

  /**
   * A bytecode signature under {@code iree.abi.model = coarse-fences}: when the bytecode did not
   * already find the fences, its last two arguments (refs) are taken as the wait and signal fences,
   * as for a calling convention.
   */
  private static FunctionSignature withFences(
      FunctionSignature s, boolean fences, List<String> warnings) {
    if (!fences || s.model() == FunctionSignature.CallingModel.COARSE_FENCES) {
      return s;
    }
    List<AbiType> args = s.arguments();
    int n = args.size();
    if (n < 2
        || !(args.get(n - 2) instanceof AbiType.Ref)
        || !(args.get(n - 1) instanceof AbiType.Ref)) {
      warnings.add(
          "iree.abi.model is coarse-fences, but the bytecode's signature "
              + s
              + " does not end in the two fence refs; the model was ignored");
      return s;
    }
    return FunctionSignature.of(args.subList(0, n - 2), s.results(), s.format())
        .withModel(FunctionSignature.CallingModel.COARSE_FENCES);
  }

  /**
   * The signature a calling convention alone gives. Under {@code iree.abi.model = coarse-fences}
   * its last two arguments are the wait and signal fences, which callers never pass (the backend
   * appends them): they are dropped and the model is {@link
   * FunctionSignature.CallingModel#COARSE_FENCES}. A convention that does not end in two refs
   * cannot hold the fences: the model is then ignored, with a warning.
   */
  private static FunctionSignature fromCallingConvention(
      String text, boolean fences, List<String> warnings) {
    CallingConvention cconv = CallingConvention.parse(text);
    if (cconv.isVariadic()) {
      throw new AbiParseException(
          ReflectionFormat.CALLING_CONVENTION,
          "offset " + text.indexOf('C'),
          "the calling convention "
              + (text.length() <= 120 ? text : text.substring(0, 120) + "...")
              + " has a variadic segment C...D, which only imports"
              + " have; it gives no signature with a fixed argument list, and the function has no"
              + " other reflection (iree.abi, iree.abi.declaration or f)");
    }
    FunctionSignature all = cconv.toSignature();
    if (!fences) {
      return all;
    }
    List<AbiType> args = all.arguments();
    int n = args.size();
    if (n < 2
        || cconv.argumentKinds().get(n - 2) != VmKind.REF
        || cconv.argumentKinds().get(n - 1) != VmKind.REF) {
      warnings.add(
          "iree.abi.model is coarse-fences, but the calling convention "
              + cconv
              + " does not end in the two fence refs; the model was ignored");
      return all;
    }
    return FunctionSignature.of(args.subList(0, n - 2), all.results(), all.format())
        .withModel(FunctionSignature.CallingModel.COARSE_FENCES);
  }
}
