package dev.ireestubs.abi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parser and printer for the MLIR types an {@code iree.abi.declaration} names, mapped onto {@link
 * AbiType}:
 *
 * <ul>
 *   <li>element types as scalars: {@code i1}, {@code i<N>}, {@code si<N>}, {@code ui<N>}, {@code
 *       f16}, {@code f32}, {@code f64}, {@code bf16}, the 8-bit floats with HAL codes ({@code
 *       f8E5M2}, {@code f8E4M3FN}, {@code f8E5M2FNUZ}, {@code f8E4M3FNUZ}, {@code f8E8M0FNU}),
 *       every other MLIR float ({@code f8E4M3}, {@code f8E3M4}, {@code f8E4M3B11FNUZ}, {@code
 *       f6E2M3FN}, {@code f6E3M2FN}, {@code f4E2M1FN}, {@code tf32}, {@code f80}, {@code f128}),
 *       {@code complex<F>} and {@code index} become {@link AbiType.Scalar};
 *   <li>{@code tensor<4x?xf32>}, rank 0 {@code tensor<f32>}, unranked {@code tensor<*xf32>}, with
 *       or without an encoding ({@code tensor<4xf32, #enc>}; the encoding is not modelled) become
 *       {@link AbiType.NdArray}; {@code !hal.buffer_view} becomes {@link
 *       AbiType.NdArray#anyBufferView()};
 *   <li>{@code !util.list<T>}, {@code !vm.list<T>} and {@code !iree_input.list<T>} become {@link
 *       AbiType.HomogeneousList}, with {@link AbiType.Any} for a variant list {@code <?>};
 *   <li>{@code tuple<T, ...>} becomes {@link AbiType.Unsupported}: tuples do not cross IREE's
 *       function ABI (frontends flatten them before it), and the VM's calling convention would
 *       spread a tuple's elements over several slots, so it is not the one-list {@link
 *       AbiType.Sequence} of the JSON formats;
 *   <li>every other dialect type {@code !dialect.name} or {@code !dialect.name<...>} ({@code
 *       !hal.buffer}, {@code !hal.fence}, {@code !hal.device}...) becomes an {@link AbiType.Ref}
 *       named by the text after {@code !}.
 * </ul>
 *
 * <p>Any other well-bracketed text ({@code memref<...>}, {@code vector<...>}, {@code none},
 * function types, a tensor of an element type this library does not know, a type alias {@code
 * !name}) becomes {@link AbiType.Unsupported} with the exact text and a reason, so one odd type
 * never fails a whole declaration. Only text whose brackets or quotes do not balance, an empty
 * type, and types nested deeper than {@value #MAX_DEPTH} levels are errors ({@link
 * AbiParseException} with a character offset).
 */
public final class MlirTypes {

  /** The deepest nesting of list types the parser follows: {@link ParseLimits#MAX_DEPTH}. */
  public static final int MAX_DEPTH = ParseLimits.MAX_DEPTH;

  /**
   * Characters that end a type at bracket depth 0 in a declaration: the separators of the parameter
   * list, the attribute dictionary's brace, and the {@code %} of the next parameter.
   */
  static final String TYPE_STOPS = ",){%";

  /** MLIR's small-float naming scheme: {@code f<width>E<exp>M<mantissa><flags>}. */
  private static final Pattern SMALL_FLOAT =
      Pattern.compile("f([1-9][0-9]?)E[0-9]+M[0-9]+[A-Z0-9]*");

  private static final Pattern DIALECT_TYPE =
      Pattern.compile("!([A-Za-z_][A-Za-z0-9_$]*)\\.([A-Za-z0-9_$.]+)");
  private static final Set<String> LIST_TYPES = Set.of("util.list", "vm.list", "iree_input.list");

  /** Why a {@code tuple<...>} is {@link AbiType.Unsupported}. */
  static final String TUPLE_REASON =
      "tuple types do not cross IREE's function ABI (frontends flatten them, and the VM calling"
          + " convention would pass their elements as separate slots)";

  private MlirTypes() {}

  // ---------------------------------------------------------------- parsing

  /**
   * Parses one MLIR type, e.g. {@code tensor<?x8xf32>}; surrounding whitespace is ignored.
   *
   * @param text the MLIR type text
   * @return the type it means
   * @throws AbiParseException with a character offset when the brackets or quotes do not balance,
   *     the text is empty or holds more than one type ({@code i32, i32}) or one of {@code )},
   *     <code>{</code>, {@code %} at the top level, the nesting is deeper than {@value #MAX_DEPTH},
   *     or the text is longer than {@link ParseLimits#MAX_TEXT_LENGTH}
   */
  public static AbiType parse(String text) {
    Objects.requireNonNull(text, "text");
    ParseLimits.checkTextLength(ReflectionFormat.DECLARATION, text);
    int start = MlirText.skipSpaces(text, 0, text.length());
    int end = MlirText.trimEnd(text, start, text.length());
    int stop = MlirText.scanBalanced(text, start, end, TYPE_STOPS);
    if (stop < end) {
      throw MlirText.error(
          stop, "expected one type, found " + MlirText.describe(text, stop) + " at the top level");
    }
    return parse(text, start, end, 1);
  }

  /**
   * Parses the type in {@code [start, end)}, which has no surrounding whitespace and whose brackets
   * balance (the caller scanned it). {@code depth} is 1 for a parameter's own type.
   */
  static AbiType parse(String s, int start, int end, int depth) {
    if (start >= end) {
      throw MlirText.error(start, "expected a type, found " + MlirText.describe(s, start));
    }
    if (depth > MAX_DEPTH) {
      throw MlirText.error(start, ParseLimits.tooDeep("types") + " are not supported");
    }
    String text = s.substring(start, end);
    Optional<ElementType> element = parseElementType(text);
    if (element.isPresent()) {
      return new AbiType.Scalar(element.get());
    }
    if (text.startsWith("tensor<") && closesAtEnd(s, start + 6, end)) {
      return tensor(s, start, end);
    }
    if (text.startsWith("tuple<") && closesAtEnd(s, start + 5, end)) {
      return new AbiType.Unsupported("tuple", text, ReflectionFormat.DECLARATION, TUPLE_REASON);
    }
    if (text.startsWith("!")) {
      return dialectType(s, start, end, depth);
    }
    String tag = head(text);
    String reason;
    if (text.equals("?")) {
      reason = "'?' (any value) is allowed only as the element of a list";
    } else if (tag.equals("memref") || tag.equals("vector")) {
      reason = tag + " types do not cross IREE's function ABI; expected a tensor";
    } else if (text.startsWith("(")) {
      reason = "function types are not supported as arguments or results";
    } else if (tag.equals("tensor") || tag.equals("tuple") || tag.equals("complex")) {
      reason = "malformed " + tag + " type";
    } else {
      reason =
          "not a type this library maps (expected an element type, tensor<...>,"
              + " !hal.buffer_view, a list or another !dialect.type)";
    }
    return new AbiType.Unsupported(tag, text, ReflectionFormat.DECLARATION, reason);
  }

  /** True when the {@code '<'} at {@code open} is closed by the {@code '>'} at {@code end - 1}. */
  private static boolean closesAtEnd(String s, int open, int end) {
    if (s.charAt(end - 1) != '>') {
      return false;
    }
    return MlirText.scanBalanced(s, open + 1, end, ">") == end - 1;
  }

  /** The leading keyword of a type's text, for {@link AbiType.Unsupported#tag()}. */
  private static String head(String text) {
    int i = text.startsWith("!") ? 1 : 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (!(MlirText.isAsciiLetter(c) || MlirText.isDigit(c) || c == '_' || c == '.' || c == '$')) {
        break;
      }
      i++;
    }
    if (i == 0) {
      return text.startsWith("(") ? "function" : text.substring(0, Math.min(1, text.length()));
    }
    return text.substring(0, i);
  }

  private static AbiType tensor(String s, int start, int end) {
    String text = s.substring(start, end);
    int p = start + "tensor<".length();
    int bodyEnd = end - 1;
    Shape shape;
    if (s.startsWith("*x", p)) {
      shape = Shape.unranked();
      p += 2;
    } else {
      List<Long> dims = new ArrayList<>();
      while (p < bodyEnd && (MlirText.isDigit(s.charAt(p)) || s.charAt(p) == '?')) {
        int q = p;
        long dim;
        if (s.charAt(p) == '?') {
          dim = Shape.DYNAMIC;
          q++;
        } else {
          while (q < bodyEnd && MlirText.isDigit(s.charAt(q))) {
            q++;
          }
          String digits = s.substring(p, q);
          if (digits.length() > 18 || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return new AbiType.Unsupported(
                "tensor",
                text,
                ReflectionFormat.DECLARATION,
                "dimension " + digits + " is not a canonical size this library holds");
          }
          dim = Long.parseLong(digits);
        }
        if (q >= bodyEnd || s.charAt(q) != 'x') {
          return new AbiType.Unsupported(
              "tensor",
              text,
              ReflectionFormat.DECLARATION,
              "expected 'x' after dimension " + s.substring(p, q));
        }
        dims.add(dim);
        p = q + 1;
      }
      long[] array = new long[dims.size()];
      for (int i = 0; i < array.length; i++) {
        array[i] = dims.get(i);
      }
      shape = Shape.of(array);
    }
    int comma = MlirText.scanBalanced(s, p, bodyEnd, ",");
    int elementStart = MlirText.skipSpaces(s, p, comma);
    String elementText = s.substring(elementStart, MlirText.trimEnd(s, elementStart, comma));
    if (comma < bodyEnd) {
      int encStart = MlirText.skipSpaces(s, comma + 1, bodyEnd);
      if (encStart >= bodyEnd) {
        return new AbiType.Unsupported(
            "tensor", text, ReflectionFormat.DECLARATION, "expected an encoding after ','");
      }
    }
    Optional<ElementType> element = parseElementType(elementText);
    if (element.isEmpty()) {
      return new AbiType.Unsupported(
          "tensor",
          text,
          ReflectionFormat.DECLARATION,
          elementText.isEmpty()
              ? "expected an element type"
              : "unsupported tensor element type '" + elementText + "'");
    }
    return new AbiType.NdArray(element.get(), shape);
  }

  private static AbiType dialectType(String s, int start, int end, int depth) {
    String text = s.substring(start, end);
    Matcher m = DIALECT_TYPE.matcher(s).region(start, end);
    if (!m.lookingAt()) {
      return new AbiType.Unsupported(
          head(text),
          text,
          ReflectionFormat.DECLARATION,
          "not a dialect type !dialect.name (a type alias or malformed text)");
    }
    String name = m.group(1) + "." + m.group(2);
    int after = m.end();
    boolean hasBody = after < end;
    if (hasBody && (s.charAt(after) != '<' || !closesAtEnd(s, after, end))) {
      return new AbiType.Unsupported(
          "!" + name,
          text,
          ReflectionFormat.DECLARATION,
          "unexpected text after the dialect type name !" + name);
    }
    if (LIST_TYPES.contains(name)) {
      if (!hasBody) {
        return new AbiType.Unsupported(
            "!" + name,
            text,
            ReflectionFormat.DECLARATION,
            "a list type needs an element type, e.g. !" + name + "<?>");
      }
      int a = MlirText.skipSpaces(s, after + 1, end - 1);
      int b = MlirText.trimEnd(s, a, end - 1);
      if (a == b) {
        return new AbiType.Unsupported(
            "!" + name,
            text,
            ReflectionFormat.DECLARATION,
            "a list type needs an element type, e.g. !" + name + "<?>");
      }
      if (b == a + 1 && s.charAt(a) == '?') {
        return new AbiType.HomogeneousList(new AbiType.Any());
      }
      return new AbiType.HomogeneousList(parse(s, a, b, depth + 1));
    }
    if (name.equals("hal.buffer_view") && !hasBody) {
      return AbiType.NdArray.anyBufferView();
    }
    return new AbiType.Ref(text.substring(1));
  }

  /**
   * The element type MLIR spells {@code name} ({@code i32}, {@code si8}, {@code bf16}, {@code
   * f8E4M3FN}, {@code complex<f32>}, {@code index}...); empty for anything else.
   *
   * @param name an element type's MLIR spelling
   * @return the element type, or empty when {@code name} is not one
   */
  public static Optional<ElementType> parseElementType(String name) {
    Objects.requireNonNull(name, "name");
    if (name.startsWith("complex<") && name.endsWith(">")) {
      // Not recursive: a complex part is a plain float.
      Optional<ElementType> part = plainElementType(name.substring(8, name.length() - 1));
      if (part.isPresent()
          && (part.get().kind() == ElementType.Kind.FLOAT
              || part.get().kind() == ElementType.Kind.BFLOAT)) {
        return Optional.of(ElementType.complex(part.get()));
      }
      return Optional.empty();
    }
    return plainElementType(name);
  }

  private static Optional<ElementType> plainElementType(String name) {
    switch (name) {
      case "index" -> {
        return Optional.of(ElementType.INDEX);
      }
      case "f16" -> {
        return Optional.of(ElementType.F16);
      }
      case "f32" -> {
        return Optional.of(ElementType.F32);
      }
      case "f64" -> {
        return Optional.of(ElementType.F64);
      }
      case "bf16" -> {
        return Optional.of(ElementType.BF16);
      }
      case "f8E5M2" -> {
        return Optional.of(ElementType.F8E5M2);
      }
      case "f8E4M3FN" -> {
        return Optional.of(ElementType.F8E4M3FN);
      }
      case "f8E5M2FNUZ" -> {
        return Optional.of(ElementType.F8E5M2FNUZ);
      }
      case "f8E4M3FNUZ" -> {
        return Optional.of(ElementType.F8E4M3FNUZ);
      }
      case "f8E8M0FNU" -> {
        return Optional.of(ElementType.F8E8M0FNU);
      }
      case "tf32" -> {
        // 19 significant bits, stored in 32.
        return Optional.of(ElementType.otherFloat("tf32", 32));
      }
      case "f80" -> {
        return Optional.of(ElementType.otherFloat("f80", 80));
      }
      case "f128" -> {
        return Optional.of(ElementType.otherFloat("f128", 128));
      }
      default -> {}
    }
    if (name.startsWith("f")) {
      Matcher small = SMALL_FLOAT.matcher(name);
      if (small.matches()) {
        return Optional.of(ElementType.otherFloat(name, Integer.parseInt(small.group(1))));
      }
      return Optional.empty();
    }
    return integerType(name);
  }

  /**
   * {@code i<N>}, {@code si<N>} or {@code ui<N>} (no leading zero, at most 8 digits, at most {@link
   * ElementType#MAX_INTEGER_WIDTH}); read by hand, as declarations are mostly these.
   */
  private static Optional<ElementType> integerType(String name) {
    int digits = name.startsWith("i") ? 1 : name.startsWith("si") || name.startsWith("ui") ? 2 : -1;
    if (digits < 0 || name.length() == digits || name.length() > digits + 8) {
      return Optional.empty();
    }
    if (name.charAt(digits) == '0') {
      return Optional.empty();
    }
    int bits = 0;
    for (int i = digits; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        return Optional.empty();
      }
      bits = bits * 10 + (c - '0');
    }
    if (bits > ElementType.MAX_INTEGER_WIDTH) {
      return Optional.empty();
    }
    return switch (name.charAt(0)) {
      case 'i' -> Optional.of(ElementType.integer(bits));
      case 's' -> Optional.of(ElementType.signedInteger(bits));
      default -> Optional.of(ElementType.unsignedInteger(bits));
    };
  }

  // ---------------------------------------------------------------- printing

  /**
   * The MLIR spelling of {@code type}, as a declaration prints it: {@code i32}, {@code
   * tensor<?x4xf32>}, {@code tensor<*xf32>}, {@code !hal.buffer_view}, {@code !util.list<?>},
   * {@code !hal.fence}; an {@link AbiType.Unsupported} read from a declaration (such as a {@code
   * tuple<...>}) prints its source text. Lists print as {@code !util.list}, whichever dialect they
   * were read from.
   *
   * @param type the type to print
   * @return MLIR text that {@link #parse} reads back as {@code type}
   * @throws IllegalArgumentException for types with no MLIR spelling: an array with an unknown
   *     element but a known shape, {@code slist}, {@code stuple} (a {@code tuple<...>} is not
   *     passed as one list, see {@link #parse(String)}), {@code sdict}, {@code named}, {@code
   *     unknown}, a ref of unknown type, {@link AbiType.Any} outside a list, and an {@link
   *     AbiType.Unsupported} read from another format
   */
  public static String print(AbiType type) {
    StringBuilder sb = new StringBuilder();
    write(sb, type, 0);
    return sb.toString();
  }

  private static void write(StringBuilder sb, AbiType type, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(
          ParseLimits.tooDeep("types") + " have no declaration text");
    }
    if (type instanceof AbiType.Scalar scalar) {
      ElementType e = scalar.element();
      if (!e.isKnown()) {
        throw new IllegalArgumentException("a scalar of unknown type has no MLIR spelling");
      }
      sb.append(e.mlirName());
    } else if (type instanceof AbiType.NdArray a) {
      if (!a.element().isKnown()) {
        if (a.shape().isRanked()) {
          throw new IllegalArgumentException(
              "an array of unknown element type with shape " + a.shape() + " has no MLIR spelling");
        }
        sb.append("!hal.buffer_view");
        return;
      }
      sb.append("tensor<");
      if (!a.shape().isRanked()) {
        sb.append("*x");
      } else if (a.shape().rank() > 0) {
        sb.append(a.shape()).append('x');
      }
      sb.append(a.element().mlirName()).append('>');
    } else if (type instanceof AbiType.HomogeneousList homogeneousList) {
      AbiType element = homogeneousList.element();
      sb.append("!util.list<");
      if (element instanceof AbiType.Any) {
        sb.append('?');
      } else {
        write(sb, element, depth + 1);
      }
      sb.append('>');
    } else if (type instanceof AbiType.Ref ref) {
      String refType = ref.refType();
      if (refType.equals(AbiType.Ref.ANY)) {
        throw new IllegalArgumentException("a ref of unknown type has no MLIR spelling");
      }
      sb.append('!').append(refType);
    } else if (type instanceof AbiType.Unsupported unsupported
        && unsupported.format() == ReflectionFormat.DECLARATION) {
      sb.append(unsupported.source());
    } else {
      throw new IllegalArgumentException(type + " has no MLIR spelling");
    }
  }
}
