package dev.ireestubs.abi;

import dev.ireestubs.abi.V0Components.Component;
import dev.ireestubs.abi.V0Components.IntegerComponent;
import dev.ireestubs.abi.V0Components.SpanComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Parser, canonical encoder and pretty printer for the deprecated V0 raw function signature,
 * reflection key {@code f} (with {@code fv = "1"}), emitted by IREE's compiler from 2019 to
 * 2021-06.
 *
 * <p>The grammar, on top of the components of {@link V0Components}:
 *
 * <pre>
 *   f     = "I" len "!" item* "R" len "!" item*      inputs, then results
 *   item  = "B" len "!" ["t" code] ("d" dim)*          a shaped buffer; the dims give the rank
 *         | "S" len "!" ["t" code]                     a scalar
 *         | "O1!"                                      an opaque ref object
 *         | "U1!"                                      a type the compiler did not recognise
 * </pre>
 *
 * <p>Type codes {@code t0}..{@code t11} are f32, f16, f64, bf16, sint8..sint64, uint8..uint64;
 * {@code t0} (f32) is the default and the compiler omits it. A dim is a size {@code >= 0} or {@code
 * -1} (dynamic). In the model a buffer is an {@link AbiType.NdArray}, a scalar an {@link
 * AbiType.Scalar} (signed element types {@code si*}, unsigned {@code ui*}), {@code O} is {@link
 * AbiType.Ref#any()} and {@code U} is {@link AbiType.Unknown}; the signature's format is {@link
 * ReflectionFormat#V0_RAW}.
 *
 * <p>Parsing is strict: in an item, {@code t} may appear once and before the dims, and {@code O}
 * and {@code U} must be empty. Non-canonical but well-formed text (an explicit {@code t0}, leading
 * zeros) is accepted; {@link #encode} writes the canonical form, byte for byte what the compiler
 * wrote.
 *
 * <p>Note that {@code S} means "scalar" here but "sequence" in a {@code sip} signature ({@link
 * SipSignature}): {@code I1!R4!S1!} is a function returning one f32 scalar under the key {@code f}
 * and one returning an empty sequence under the key {@code sip}.
 */
public final class V0RawSignature {

  private static final ReflectionFormat FORMAT = ReflectionFormat.V0_RAW;

  /** The element types of type codes 0..11, in code order. */
  private static final List<ElementType> TYPES =
      List.of(
          ElementType.F32,
          ElementType.F16,
          ElementType.F64,
          ElementType.BF16,
          ElementType.SI8,
          ElementType.SI16,
          ElementType.SI32,
          ElementType.SI64,
          ElementType.UI8,
          ElementType.UI16,
          ElementType.UI32,
          ElementType.UI64);

  /** The printable names of type codes 0..11, as IREE's pretty printer writes them. */
  private static final List<String> TYPE_NAMES =
      List.of(
          "float32",
          "float16",
          "float64",
          "bfloat16",
          "sint8",
          "sint16",
          "sint32",
          "sint64",
          "uint8",
          "uint16",
          "uint32",
          "uint64");

  private V0RawSignature() {}

  // ---------------------------------------------------------------- type codes

  /**
   * The element type of a V0 type code: 0 f32, 1 f16, 2 f64, 3 bf16, 4..7 si8..si64, 8..11
   * ui8..ui64.
   *
   * @param code a V0 type code, 0 to 11
   * @return the element type the code names
   * @throws IllegalArgumentException for any other code
   */
  public static ElementType elementType(int code) {
    if (code < 0 || code >= TYPES.size()) {
      throw new IllegalArgumentException(
          "V0 type codes are 0.." + (TYPES.size() - 1) + ", got " + code);
    }
    return TYPES.get(code);
  }

  /**
   * The V0 type code of {@code element}, following the compiler's mapping: the twelve coded types
   * themselves, and signless integers as signed ones ({@code i1} and {@code i8} as sint8, as the
   * compiler stores booleans in bytes; {@code i16}, {@code i32}, {@code i64} as sint16..sint64).
   * Empty for every other type (the compiler wrote such scalars as {@code U1!}).
   *
   * @param element an element type
   * @return the type code, or empty when V0 has none for it
   */
  public static OptionalInt typeCode(ElementType element) {
    int i = TYPES.indexOf(element);
    if (i >= 0) {
      return OptionalInt.of(i);
    }
    if (element.kind() == ElementType.Kind.BOOLEAN) {
      return OptionalInt.of(TYPES.indexOf(ElementType.SI8));
    }
    if (element.kind() == ElementType.Kind.SIGNLESS_INTEGER) {
      return switch (element.bits()) {
        case 8 -> OptionalInt.of(TYPES.indexOf(ElementType.SI8));
        case 16 -> OptionalInt.of(TYPES.indexOf(ElementType.SI16));
        case 32 -> OptionalInt.of(TYPES.indexOf(ElementType.SI32));
        case 64 -> OptionalInt.of(TYPES.indexOf(ElementType.SI64));
        default -> OptionalInt.empty();
      };
    }
    return OptionalInt.empty();
  }

  /**
   * The name IREE's pretty printer gives a type code: {@code float32}, {@code float16}, {@code
   * float64}, {@code bfloat16}, {@code sint8}..{@code sint64}, {@code uint8}..{@code uint64}.
   *
   * @param code a V0 type code, 0 to 11
   * @return the printer's name for it
   * @throws IllegalArgumentException for a code outside 0..11
   */
  public static String typeName(int code) {
    elementType(code);
    return TYPE_NAMES.get(code);
  }

  // ---------------------------------------------------------------- parsing

  /**
   * Parses an {@code f} signature such as {@code I15!B11!d10d128d64R15!B11!t6d32d8d64}.
   *
   * @param f the text of a function's {@code f} attribute
   * @return the signature, format {@link ReflectionFormat#V0_RAW}, synchronous, no version
   * @throws AbiParseException when the text does not follow the grammar; the message names the byte
   *     offset, what was expected and what was found
   */
  public static FunctionSignature parse(String f) {
    V0Components.Reader reader = V0Components.Reader.of(f, FORMAT);
    SpanComponent inputs = expectSide(reader, 'I', "inputs");
    SpanComponent results = expectSide(reader, 'R', "results");
    if (!reader.atEnd()) {
      throw reader.error(
          reader.offset(),
          "expected the end of the signature after the results span R, found "
              + reader.describeAt(reader.offset()));
    }
    List<AbiType> args = items(reader.open(inputs));
    List<AbiType> res = items(reader.open(results));
    return FunctionSignature.of(args, res, FORMAT);
  }

  /**
   * Parses one item of a raw signature, such as {@code B13!t2d-1d128d64} or {@code S3!t6}.
   *
   * @param item one item's text
   * @return the type the item describes
   * @throws AbiParseException when the text is not exactly one item
   */
  public static AbiType parseType(String item) {
    V0Components.Reader reader = V0Components.Reader.of(item, FORMAT);
    if (reader.atEnd()) {
      throw reader.error(
          0,
          "expected an item (B buffer, S scalar, O ref or U unrecognized), found the end of the text");
    }
    AbiType type = item(reader, reader.next());
    if (!reader.atEnd()) {
      throw reader.error(
          reader.offset(),
          "expected the end of the text after one item, found "
              + reader.describeAt(reader.offset()));
    }
    return type;
  }

  /** Reads the span of one side ({@code I} or {@code R}). */
  static SpanComponent expectSide(V0Components.Reader reader, char tag, String side) {
    int at = reader.offset();
    String expected =
        "expected the " + side + " span " + tag + "<length>!" + (tag == 'I' ? " at the start" : "");
    if (reader.atEnd()) {
      throw reader.error(at, expected + ", found " + reader.describeAt(at));
    }
    Component c = reader.next();
    if (!(c instanceof SpanComponent spanComponent) || c.tag() != tag) {
      throw reader.error(at, expected + ", found " + describe(c));
    }
    return spanComponent;
  }

  private static List<AbiType> items(V0Components.Reader reader) {
    List<AbiType> out = new ArrayList<>();
    while (!reader.atEnd()) {
      out.add(item(reader, reader.next()));
    }
    return out;
  }

  private static AbiType item(V0Components.Reader reader, Component c) {
    String expected = "expected an item (B buffer, S scalar, O ref or U unrecognized)";
    if (!(c instanceof SpanComponent span)) {
      throw reader.error(c.offset(), expected + ", found " + describe(c));
    }

    return switch (span.tag()) {
      case 'B' -> buffer(reader, span);
      case 'S' -> scalar(reader, span);
      case 'O' -> {
        requireEmpty(reader, span, "an opaque ref object is written O1!");
        yield AbiType.Ref.any();
      }
      case 'U' -> {
        requireEmpty(reader, span, "an unrecognized type is written U1!");
        yield new AbiType.Unknown();
      }
      case 'I', 'R' ->
          throw reader.error(
              c.offset(),
              expected
                  + ", found "
                  + describe(c)
                  + "; I and R spans appear only at the top level,"
                  + " once each");
      default -> throw reader.error(c.offset(), expected + ", found " + describe(c));
    };
  }

  private static AbiType buffer(V0Components.Reader outer, SpanComponent span) {
    V0Components.Reader r = outer.open(span);
    ElementType element = ElementType.F32;
    boolean typed = false;
    List<Long> dims = new ArrayList<>();
    while (!r.atEnd()) {
      Component c = r.next();
      if (c instanceof IntegerComponent integerComponent && c.tag() == 't') {
        if (typed || !dims.isEmpty()) {
          throw r.error(
              c.offset(),
              "expected the type code t<code> at most once and before the dims of buffer B, found "
                  + describe(c));
        }
        element = code(r, integerComponent);
        typed = true;
      } else if (c instanceof IntegerComponent integerComponent && c.tag() == 'd') {
        int d = integerComponent.value();
        if (d < -1) {
          throw r.error(
              c.offset(),
              "expected a dimension d<size> with size >= 0, or d-1 for a dynamic one, found " + c);
        }
        dims.add(d == -1 ? Shape.DYNAMIC : (long) d);
      } else {
        throw r.error(
            c.offset(),
            "expected a type code t<code> or a dimension d<dim> in buffer B, found " + describe(c));
      }
    }
    long[] shape = new long[dims.size()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = dims.get(i);
    }
    return new AbiType.NdArray(element, Shape.of(shape));
  }

  private static AbiType scalar(V0Components.Reader outer, SpanComponent span) {
    V0Components.Reader r = outer.open(span);
    ElementType element = ElementType.F32;
    if (!r.atEnd()) {
      Component c = r.next();
      if (!(c instanceof IntegerComponent integerComponent) || c.tag() != 't') {
        throw r.error(c.offset(), "expected a type code t<code> in scalar S, found " + describe(c));
      }
      element = code(r, integerComponent);
    }
    if (!r.atEnd()) {
      throw r.error(
          r.offset(),
          "expected the end of scalar S after its type code, found " + r.describeAt(r.offset()));
    }
    return new AbiType.Scalar(element);
  }

  private static ElementType code(V0Components.Reader r, IntegerComponent c) {
    if (c.value() < 0 || c.value() >= TYPES.size()) {
      throw r.error(
          c.offset(),
          "expected a type code t0..t"
              + (TYPES.size() - 1)
              + " (f32, f16, f64, bf16, sint8..sint64,"
              + " uint8..uint64), found "
              + c);
    }
    return TYPES.get(c.value());
  }

  private static void requireEmpty(
      V0Components.Reader reader, SpanComponent span, String expected) {
    if (span.contentLength() != 0) {
      throw reader.error(
          span.contentOffset(),
          "expected an empty span (" + expected + "), found contents " + quoteContents(span));
    }
  }

  /** How an error message names a component that was found. */
  static String describe(Component c) {
    if (c instanceof IntegerComponent) {
      return "integer component '" + c + "'";
    }
    SpanComponent s = (SpanComponent) c;
    return "span '" + s.tag() + "' (" + quoteContents(s) + ")";
  }

  private static String quoteContents(SpanComponent s) {
    String contents = s.contents();
    if (contents.length() > 32) {
      contents = contents.substring(0, 32) + "...";
    }
    return s.tag() + String.valueOf(s.contentLength() + 1) + "!" + contents;
  }

  // ---------------------------------------------------------------- encoding

  /**
   * The canonical {@code f} text of {@code signature}, as IREE's compiler wrote it: {@code t0}
   * omitted, dims in order, {@code d-1} for a dynamic dim.
   *
   * <p>Expressible: {@link AbiType.NdArray} of a ranked shape with dims up to {@code
   * Integer.MAX_VALUE} and an element with a {@linkplain #typeCode type code}; {@link
   * AbiType.Scalar} of such an element; {@link AbiType.Ref#any()}; {@link AbiType.Unknown}.
   * Signless integers are written as signed ones, as the compiler wrote them, so they read back as
   * {@code si*}. The format and {@code abiVersion} of the signature are not part of the text.
   *
   * @param signature the signature to write
   * @return the {@code f} text that {@link #parse} reads back as {@code signature}
   * @throws IllegalArgumentException when the signature holds a type V0 cannot express (a
   *     structure, a named argument, an unranked or oversized shape, an element such as {@code
   *     index}, a typed ref, {@link AbiType.Any}, {@link AbiType.Unsupported}) or uses the
   *     coarse-fences calling model; the message names the argument or result
   */
  public static String encode(FunctionSignature signature) {
    requireSync(signature);
    V0Components.Builder inputs = new V0Components.Builder();
    for (int i = 0; i < signature.arguments().size(); i++) {
      writeItem(inputs, signature.arguments().get(i), "argument " + i);
    }
    V0Components.Builder results = new V0Components.Builder();
    for (int i = 0; i < signature.results().size(); i++) {
      writeItem(results, signature.results().get(i), "result " + i);
    }
    return new V0Components.Builder().span('I', inputs).span('R', results).toString();
  }

  /**
   * The canonical text of one item, e.g. {@code B13!t2d-1d128d64}.
   *
   * @param type the type to write
   * @return the item's text
   * @throws IllegalArgumentException when V0 cannot express {@code type} (see {@link #encode})
   */
  public static String encodeType(AbiType type) {
    V0Components.Builder b = new V0Components.Builder();
    writeItem(b, type, "type");
    return b.toString();
  }

  private static void writeItem(V0Components.Builder out, AbiType type, String where) {
    if (type instanceof AbiType.NdArray a) {
      int code = requireCode(a.element(), type, where);
      if (!a.shape().isRanked()) {
        throw unexpressible(where, type, "V0 buffers are ranked (the dims give the rank)");
      }
      V0Components.Builder item = new V0Components.Builder();
      if (code != 0) {
        item.integer('t', code);
      }
      for (long d : a.shape().dims()) {
        if (d > Integer.MAX_VALUE) {
          throw unexpressible(where, type, "dimension " + d + " is above " + Integer.MAX_VALUE);
        }
        item.integer('d', (int) d);
      }
      out.span('B', item);
    } else if (type instanceof AbiType.Scalar scalar) {
      int code = requireCode(scalar.element(), type, where);
      V0Components.Builder item = new V0Components.Builder();
      if (code != 0) {
        item.integer('t', code);
      }
      out.span('S', item);
    } else if (type instanceof AbiType.Ref ref) {
      if (!AbiType.Ref.ANY.equals(ref.refType())) {
        throw unexpressible(
            where, type, "V0 has only opaque refs of any type (O1!), not typed refs");
      }
      out.span('O', "");
    } else if (type instanceof AbiType.Unknown) {
      out.span('U', "");
    } else {
      throw unexpressible(
          where,
          type,
          "V0 raw signatures hold only buffers, scalars, opaque refs and unrecognized types");
    }
  }

  private static int requireCode(ElementType element, AbiType type, String where) {
    OptionalInt code = typeCode(element);
    if (code.isEmpty()) {
      throw unexpressible(
          where,
          type,
          "element type "
              + element
              + " has no V0 type code (f32, f16, f64, bf16, i1, i8..i64,"
              + " si8..si64, ui8..ui64)");
    }
    return code.getAsInt();
  }

  private static void requireSync(FunctionSignature signature) {
    if (signature.model() != FunctionSignature.CallingModel.SYNC) {
      throw new IllegalArgumentException(
          "cannot write "
              + signature
              + " as a V0 raw signature: V0 has no calling model "
              + signature.model());
    }
  }

  private static IllegalArgumentException unexpressible(String where, AbiType type, String why) {
    return new IllegalArgumentException(
        "cannot write " + where + " (" + type + ") as a V0 raw signature: " + why);
  }

  // ---------------------------------------------------------------- pretty form

  /**
   * The form IREE's old pretty printer gave, e.g. {@code (RefObject<?>, Buffer<float32[?x128x64]>,
   * sint32) -> (Buffer<uint64[32x?x64]>)}: buffers as {@code Buffer<type[dims]>} ({@code ?} for a
   * dynamic dim, {@code []} for rank 0), scalars by type name, opaque refs as {@code RefObject<?>},
   * unrecognized types as {@code !UNKNOWN!}.
   *
   * @param signature the signature to print
   * @return the printed form, for people
   * @throws IllegalArgumentException when V0 cannot express the signature (see {@link #encode})
   */
  public static String pretty(FunctionSignature signature) {
    requireSync(signature);
    StringBuilder sb = new StringBuilder("(");
    prettyList(sb, signature.arguments(), "argument ");
    sb.append(") -> (");
    prettyList(sb, signature.results(), "result ");
    return sb.append(')').toString();
  }

  /**
   * The pretty form of one item, e.g. {@code Buffer<float32[10x128x64]>}.
   *
   * @param type the type to print
   * @return the printed form, for people
   * @throws IllegalArgumentException when V0 cannot express {@code type} (see {@link #encode})
   */
  public static String prettyType(AbiType type) {
    StringBuilder sb = new StringBuilder();
    prettyItem(sb, type, "type");
    return sb.toString();
  }

  private static void prettyList(StringBuilder sb, List<AbiType> types, String what) {
    for (int i = 0; i < types.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      prettyItem(sb, types.get(i), what + i);
    }
  }

  private static void prettyItem(StringBuilder sb, AbiType type, String where) {
    // Checks expressibility exactly as the encoder does.
    writeItem(new V0Components.Builder(), type, where);
    if (type instanceof AbiType.NdArray a) {
      sb.append("Buffer<").append(TYPE_NAMES.get(typeCode(a.element()).getAsInt())).append('[');
      long[] dims = a.shape().dims();
      for (int i = 0; i < dims.length; i++) {
        if (i > 0) {
          sb.append('x');
        }
        sb.append(dims[i] == Shape.DYNAMIC ? "?" : Long.toString(dims[i]));
      }
      sb.append("]>");
    } else if (type instanceof AbiType.Scalar scalar) {
      sb.append(TYPE_NAMES.get(typeCode(scalar.element()).getAsInt()));
    } else if (type instanceof AbiType.Ref) {
      sb.append("RefObject<?>");
    } else {
      sb.append("!UNKNOWN!");
    }
  }
}
