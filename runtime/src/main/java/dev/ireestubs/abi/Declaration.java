package dev.ireestubs.abi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed {@code iree.abi.declaration}: the readable signature every IREE compiler since 2023-12
 * attaches to exported functions, e.g.
 *
 * <pre>{@code
 * sync func @outputStorage(%input0: tensor<?x8x8x3xf32>, %input1: !hal.buffer {iree.abi.output = 1 : index}) -> (%output0: tensor<?x8x8x3xf32>, %output1: tensor<?x8x8x3xf32>)
 * }</pre>
 *
 * <p>Format: {@code async} or {@code async} (the coarse-fences model), {@code func @<name>(}, the
 * arguments {@code %<name>: <mlir type>} each optionally followed by {@code {attr = value, ...}},
 * separated by {@code ", "}, then {@code ) -> (}, the results in the same form, and {@code )}.
 * Names come from {@code iree.abi.name}, otherwise {@code input<i>} / {@code output<i>}. IREE says
 * the text is meant for people, not machines, so {@link #parse} is tolerant where that is
 * unambiguous (extra whitespace, a missing {@code -> (...)} meaning no results) and precise
 * everywhere else: bad text is an {@link AbiParseException} with a character offset, while a
 * well-bracketed type it does not know becomes {@link AbiType.Unsupported} (see {@link MlirTypes})
 * instead of failing the whole declaration.
 *
 * <p>{@link #print()} writes the canonical text, which is what IREE's compiler writes: for every
 * declaration the compiler generates, {@code Declaration.parse(s).print()} is {@code s}.
 *
 * <p>A frontend may also replace the generated text with its own ({@code iree.abi.declaration} set
 * on the source function is copied as it is), so any text may arrive: callers should treat an
 * {@link AbiParseException} as "no typed signature" and fall back to the calling convention.
 *
 * @param async true for {@code async} (coarse fences: two {@code !hal.fence} arguments follow the
 *     declared ones at the VM level), false for {@code async}
 * @param name the exported function's name (after {@code @})
 * @param arguments the declared arguments, in order
 * @param results the declared results, in order
 */
public record Declaration(
    boolean async,
    String name,
    List<Declaration.Parameter> arguments,
    List<Declaration.Parameter> results) {

  /**
   * Refuses an empty name, or one with whitespace, control characters or {@code (}, and copies the
   * lists.
   *
   * @param async true for {@code async} (coarse fences: two {@code !hal.fence} arguments follow the
   *     declared ones at the VM level), false for {@code async}
   * @param name the exported function's name (after {@code @})
   * @param arguments the declared arguments, in order
   * @param results the declared results, in order
   */
  public Declaration {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a function name must not be empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (MlirText.isSpace(c) || c == '(' || c < 0x20) {
        throw new IllegalArgumentException(
            "a function name must not contain whitespace, control characters or '(': " + name);
      }
    }
    arguments = List.copyOf(arguments);
    results = List.copyOf(results);
  }

  /**
   * One argument or result: {@code %name: type {attributes}}.
   *
   * @param name the name after {@code %} (from {@code iree.abi.name}, or {@code input<i>}/{@code
   *     output<i>}); non-empty, without whitespace or any of {@code , ( ) { } [ ] < > "}
   * @param type the type, as {@link MlirTypes#parse} maps {@code typeText}
   * @param typeText the MLIR type text exactly as written, e.g. {@code tensor<4xf32, #enc>} (it
   *     keeps what the model does not hold, such as a tensor encoding or which list dialect)
   * @param attributes the text between the braces of the attribute dictionary, e.g. {@code
   *     iree.abi.output = 1 : index}, or {@code ""} when there is none
   */
  public record Parameter(String name, AbiType type, String typeText, String attributes) {
    private static final Pattern INTEGER_VALUE =
        Pattern.compile("(-?[0-9]{1,18})(?:\\s*:\\s*[A-Za-z0-9_]+)?");

    /**
     * Checks that the name can follow {@code %}, that the type text parses to {@code type}, and
     * that the attributes parse; strips the attributes' outer whitespace.
     *
     * @param name the name after {@code %} (from {@code iree.abi.name}, or {@code input<i>}/{@code
     *     output<i>}); non-empty, without whitespace or any of {@code , ( ) { } [ ] < > "}
     * @param type the type, as {@link MlirTypes#parse} maps {@code typeText}
     * @param typeText the MLIR type text exactly as written, e.g. {@code tensor<4xf32, #enc>} (it
     *     keeps what the model does not hold, such as a tensor encoding or which list dialect)
     * @param attributes the text between the braces of the attribute dictionary, e.g. {@code
     *     iree.abi.output = 1 : index}, or {@code ""} when there is none
     */
    public Parameter {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(typeText, "typeText");
      Objects.requireNonNull(attributes, "attributes");
      String bad = DeclarationParser.checkParameterName(name);
      if (bad != null) {
        throw new IllegalArgumentException(bad);
      }
      AbiType parsed;
      try {
        if (!typeText.equals(MlirText.strip(typeText))) {
          throw new IllegalArgumentException(
              "type text must not start or end with whitespace: '" + typeText + "'");
        }
        parsed = MlirTypes.parse(typeText);
        DeclarationParser.attributeEntries(attributes, 0, attributes.length());
      } catch (AbiParseException e) {
        throw new IllegalArgumentException("parameter %" + name + ": " + e.getMessage(), e);
      }
      if (!parsed.equals(type)) {
        throw new IllegalArgumentException(
            "parameter %"
                + name
                + ": type text '"
                + typeText
                + "' means "
                + parsed
                + ", not "
                + type);
      }
      attributes = MlirText.strip(attributes);
    }

    /**
     * A parameter with no attributes whose type text is {@link MlirTypes#print} of {@code type}.
     *
     * @param name the name after {@code %}
     * @param type the parameter's type
     * @return a parameter with no attributes
     * @throws IllegalArgumentException when {@code type} has no MLIR spelling
     */
    public static Parameter of(String name, AbiType type) {
      return new Parameter(name, type, MlirTypes.print(type), "");
    }

    /**
     * The attribute dictionary as key to raw value text, in written order: {@code iree.abi.output}
     * to {@code 1 : index}, {@code ml_program.identifier} to {@code "serving_default_input:0"}
     * (quotes kept). A quoted key is unquoted. A unit attribute written without a value maps to
     * {@code unit}, as MLIR prints it.
     *
     * @return the attributes by key, unmodifiable; empty when there are none
     */
    public Map<String, String> attributeMap() {
      Map<String, String> map = new LinkedHashMap<>();
      for (String[] kv : DeclarationParser.attributeEntries(attributes, 0, attributes.length())) {
        map.put(kv[0], kv[1]);
      }
      return Collections.unmodifiableMap(map);
    }

    /**
     * The raw value text of attribute {@code key}, if present.
     *
     * @param key the attribute's key
     * @return the value's text, or empty when the parameter has no such attribute
     */
    public Optional<String> attribute(String key) {
      return Optional.ofNullable(attributeMap().get(key));
    }

    /**
     * The value of attribute {@code key} when it is one string literal, unescaped (e.g. {@code
     * ml_program.identifier} gives {@code serving_default_input:0}); empty otherwise.
     *
     * @param key the attribute's key
     * @return the unescaped string, or empty when the attribute is absent or not one string
     */
    public Optional<String> stringAttribute(String key) {
      return attribute(key).flatMap(MlirText::unquote);
    }

    /**
     * The value of attribute {@code key} when it is an integer, optionally typed ({@code 1 :
     * index}, {@code 3 : i64}, {@code 7}); empty otherwise.
     *
     * @param key the attribute's key
     * @return the integer, or empty when the attribute is absent or not an integer
     */
    public OptionalLong integerAttribute(String key) {
      Optional<String> v = attribute(key);
      if (v.isEmpty()) {
        return OptionalLong.empty();
      }
      Matcher m = INTEGER_VALUE.matcher(v.get());
      return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    /** The canonical text, {@code %name: type {attributes}}. */
    @Override
    public String toString() {
      return "%" + name + ": " + typeText + (attributes.isEmpty() ? "" : " {" + attributes + "}");
    }
  }

  /**
   * Parses a declaration such as {@code sync func @add(%input0: tensor<4xf32>) -> (%output0:
   * tensor<4xf32>)}.
   *
   * @param text an {@code iree.abi.declaration} attribute's text
   * @return the parsed declaration
   * @throws AbiParseException with a character offset and what was expected, for text that is not a
   *     declaration (unbalanced brackets or quotes, a missing {@code %}, {@code :} or {@code )}, a
   *     malformed attribute dictionary, types nested deeper than {@value ParseLimits#MAX_DEPTH},
   *     text longer than {@link ParseLimits#MAX_TEXT_LENGTH})
   */
  public static Declaration parse(String text) {
    ParseLimits.checkTextLength(ReflectionFormat.DECLARATION, Objects.requireNonNull(text, "text"));
    return DeclarationParser.parse(text);
  }

  /**
   * The canonical text; {@code parse(d.print())} equals {@code d}.
   *
   * @return the declaration as IREE's compiler writes it
   */
  public String print() {
    StringBuilder sb = new StringBuilder();
    sb.append(async ? "async" : "sync").append(" func @").append(name).append('(');
    appendParameters(sb, arguments);
    sb.append(") -> (");
    appendParameters(sb, results);
    return sb.append(')').toString();
  }

  private static void appendParameters(StringBuilder sb, List<Parameter> parameters) {
    for (int i = 0; i < parameters.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(parameters.get(i));
    }
  }

  /**
   * The signature this declaration states, in format {@link ReflectionFormat#DECLARATION}: argument
   * and result types in order (names are not keywords, so no {@link AbiType.Named}); the model is
   * {@link FunctionSignature.CallingModel#COARSE_FENCES} for {@code async}, {@link
   * FunctionSignature.CallingModel#SYNC} otherwise.
   *
   * @return the signature, argument and result types in order
   */
  public FunctionSignature toSignature() {
    List<AbiType> args = new ArrayList<>();
    arguments.forEach(p -> args.add(p.type()));
    List<AbiType> res = new ArrayList<>();
    results.forEach(p -> res.add(p.type()));
    FunctionSignature sig = FunctionSignature.of(args, res, ReflectionFormat.DECLARATION);
    return async ? sig.withModel(FunctionSignature.CallingModel.COARSE_FENCES) : sig;
  }

  /** The canonical text, as {@link #print()}. */
  @Override
  public String toString() {
    return print();
  }
}
