package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiType.NdArray;
import dev.ireestubs.abi.AbiType.Scalar;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The raw function signature {@code f}, with the vectors of reference section 4.4. */
class V0RawSignatureTest {

  private static final long DYN = Shape.DYNAMIC;

  private static NdArray buffer(ElementType e, long... dims) {
    return new NdArray(e, Shape.of(dims));
  }

  private static FunctionSignature sig(List<AbiType> args, List<AbiType> results) {
    return FunctionSignature.of(args, results, ReflectionFormat.V0_RAW);
  }

  /** Decodes, re-encodes byte-identically, and checks the model. */
  private static FunctionSignature roundTrip(String f, FunctionSignature expected) {
    FunctionSignature parsed = V0RawSignature.parse(f);
    assertThat(parsed).isEqualTo(expected);
    assertThat(V0RawSignature.encode(expected)).isEqualTo(f);
    return parsed;
  }

  private static AbiParseException fails(String f) {
    return assertThrows(AbiParseException.class, () -> V0RawSignature.parse(f));
  }

  // ---------------------------------------------------------------- items ("raw" vectors)

  @Test
  void items() {
    assertThat(V0RawSignature.parseType("B1!")).isEqualTo(buffer(ElementType.F32));
    assertThat(V0RawSignature.encodeType(buffer(ElementType.F32))).isEqualTo("B1!");
    NdArray f64 = buffer(ElementType.F64, DYN, 128, 64);
    assertThat(V0RawSignature.parseType("B13!t2d-1d128d64")).isEqualTo(f64);
    assertThat(V0RawSignature.encodeType(f64)).isEqualTo("B13!t2d-1d128d64");
    assertThat(V0RawSignature.parseType("S1!")).isEqualTo(new Scalar(ElementType.F32));
    assertThat(V0RawSignature.encodeType(new Scalar(ElementType.F32))).isEqualTo("S1!");
    assertThat(V0RawSignature.parseType("S3!t6")).isEqualTo(new Scalar(ElementType.SI32));
    assertThat(V0RawSignature.encodeType(new Scalar(ElementType.SI32))).isEqualTo("S3!t6");
    assertThat(V0RawSignature.parseType("O1!")).isEqualTo(AbiType.Ref.any());
    assertThat(V0RawSignature.encodeType(AbiType.Ref.any())).isEqualTo("O1!");
    assertThat(V0RawSignature.parseType("U1!")).isEqualTo(new AbiType.Unknown());
    assertThat(V0RawSignature.encodeType(new AbiType.Unknown())).isEqualTo("U1!");
  }

  @Test
  void prettyItems() {
    assertThat(V0RawSignature.prettyType(buffer(ElementType.F32))).isEqualTo("Buffer<float32[]>");
    assertThat(V0RawSignature.prettyType(buffer(ElementType.F64, DYN, 128, 64)))
        .isEqualTo("Buffer<float64[?x128x64]>");
    assertThat(V0RawSignature.prettyType(new Scalar(ElementType.SI32))).isEqualTo("sint32");
    assertThat(V0RawSignature.prettyType(AbiType.Ref.any())).isEqualTo("RefObject<?>");
    assertThat(V0RawSignature.prettyType(new AbiType.Unknown())).isEqualTo("!UNKNOWN!");
  }

  @Test
  void everyTypeCode() {
    String[] names = {
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
      "uint64"
    };
    ElementType[] types = {
      ElementType.F32, ElementType.F16, ElementType.F64, ElementType.BF16, ElementType.SI8,
      ElementType.SI16, ElementType.SI32, ElementType.SI64, ElementType.UI8, ElementType.UI16,
      ElementType.UI32, ElementType.UI64
    };
    int[] sizes = {4, 2, 8, 2, 1, 2, 4, 8, 1, 2, 4, 8};
    for (int code = 0; code < 12; code++) {
      assertThat(V0RawSignature.elementType(code)).isEqualTo(types[code]);
      assertThat(V0RawSignature.elementType(code).byteSize()).isEqualTo(sizes[code]);
      assertThat(V0RawSignature.typeCode(types[code])).hasValue(code);
      assertThat(V0RawSignature.typeName(code)).isEqualTo(names[code]);
      String item = code == 0 ? "S1!" : "S" + (code < 10 ? 3 : 4) + "!t" + code;
      assertThat(V0RawSignature.parseType(item)).isEqualTo(new Scalar(types[code]));
      assertThat(V0RawSignature.encodeType(new Scalar(types[code]))).isEqualTo(item);
    }
    assertThrows(IllegalArgumentException.class, () -> V0RawSignature.elementType(12));
    assertThrows(IllegalArgumentException.class, () -> V0RawSignature.typeName(-1));
  }

  // ---------------------------------------------------------------- functions ("raw_fn")

  @Test
  void noArgumentsNoResults() {
    FunctionSignature s = roundTrip("I1!R1!", sig(List.of(), List.of()));
    assertThat(V0RawSignature.pretty(s)).isEqualTo("() -> ()");
    assertThat(s.format()).isEqualTo(ReflectionFormat.V0_RAW);
  }

  @Test
  void staticBuffers() {
    FunctionSignature s =
        roundTrip(
            "I15!B11!d10d128d64R15!B11!t6d32d8d64",
            sig(
                List.of(buffer(ElementType.F32, 10, 128, 64)),
                List.of(buffer(ElementType.SI32, 32, 8, 64))));
    assertThat(V0RawSignature.pretty(s))
        .isEqualTo("(Buffer<float32[10x128x64]>) -> (Buffer<sint32[32x8x64]>)");
  }

  @Test
  void dynamicBuffers() {
    FunctionSignature s =
        roundTrip(
            "I15!B11!d-1d128d64R15!B11!t6d-1d8d64",
            sig(
                List.of(buffer(ElementType.F32, DYN, 128, 64)),
                List.of(buffer(ElementType.SI32, DYN, 8, 64))));
    assertThat(V0RawSignature.pretty(s))
        .isEqualTo("(Buffer<float32[?x128x64]>) -> (Buffer<sint32[?x8x64]>)");
  }

  @Test
  void scalars() {
    FunctionSignature s =
        roundTrip(
            "I6!S3!t6R6!S3!t2",
            sig(List.of(new Scalar(ElementType.SI32)), List.of(new Scalar(ElementType.F64))));
    assertThat(V0RawSignature.pretty(s)).isEqualTo("(sint32) -> (float64)");
  }

  @Test
  void refBufferAndScalar() {
    FunctionSignature s =
        roundTrip(
            "I23!O1!B11!d-1d128d64S3!t6R17!B13!t11d32d-1d64",
            sig(
                List.of(
                    AbiType.Ref.any(),
                    buffer(ElementType.F32, DYN, 128, 64),
                    new Scalar(ElementType.SI32)),
                List.of(buffer(ElementType.UI64, 32, DYN, 64))));
    assertThat(V0RawSignature.pretty(s))
        .isEqualTo(
            "(RefObject<?>, Buffer<float32[?x128x64]>, sint32) -> (Buffer<uint64[32x?x64]>)");
  }

  // ---------------------------------------------------------------- compiler vectors ("mlir")

  @Test
  void compilerOutputForMlirFunctions() {
    roundTrip(
        "I19!B7!t7d4d4B7!t7d5d5R10!B7!t7d5d5",
        sig(
            List.of(buffer(ElementType.SI64, 4, 4), buffer(ElementType.SI64, 5, 5)),
            List.of(buffer(ElementType.SI64, 5, 5))));
    roundTrip("I11!B8!t7d-1d4R1!", sig(List.of(buffer(ElementType.SI64, DYN, 4)), List.of()));
    roundTrip("I6!S3!t6R1!", sig(List.of(new Scalar(ElementType.SI32)), List.of()));
    roundTrip("I6!B3!d1R1!", sig(List.of(buffer(ElementType.F32, 1)), List.of()));
    String[] oneDim = {
      "I8!B5!t2d1R1!",
      "I8!B5!t1d1R1!",
      "I8!B5!t3d1R1!",
      "I8!B5!t4d1R1!",
      "I8!B5!t5d1R1!",
      "I8!B5!t6d1R1!",
      "I8!B5!t7d1R1!"
    };
    ElementType[] types = {
      ElementType.F64,
      ElementType.F16,
      ElementType.BF16,
      ElementType.SI8,
      ElementType.SI16,
      ElementType.SI32,
      ElementType.SI64
    };
    for (int i = 0; i < oneDim.length; i++) {
      roundTrip(oneDim[i], sig(List.of(buffer(types[i], 1)), List.of()));
    }
    // i1 -> sint8 (bools are stored as bytes); i3 -> unrecognized.
    roundTrip("I6!S3!t4R1!", sig(List.of(new Scalar(ElementType.SI8)), List.of()));
    roundTrip("I4!U1!R1!", sig(List.of(new AbiType.Unknown()), List.of()));
    roundTrip("I1!R4!U1!", sig(List.of(), List.of(new AbiType.Unknown())));
  }

  @Test
  void signlessIntegersAreWrittenAsTheCompilerWroteThem() {
    FunctionSignature fromJson =
        FunctionSignature.of(
            List.of(
                new Scalar(ElementType.I1),
                new Scalar(ElementType.I8),
                new Scalar(ElementType.I16),
                buffer(ElementType.I32, 4),
                buffer(ElementType.I64, 4)),
            List.of(),
            ReflectionFormat.IREE_ABI_JSON);
    String f = V0RawSignature.encode(fromJson);
    assertThat(f).isEqualTo("I30!S3!t4S3!t4S3!t5B5!t6d4B5!t7d4R1!");
    assertThat(V0RawSignature.parse(f).arguments())
        .containsExactly(
            new Scalar(ElementType.SI8),
            new Scalar(ElementType.SI8),
            new Scalar(ElementType.SI16),
            buffer(ElementType.SI32, 4),
            buffer(ElementType.SI64, 4))
        .inOrder();
    assertThat(V0RawSignature.pretty(fromJson))
        .isEqualTo("(sint8, sint8, sint16, Buffer<sint32[4]>, Buffer<sint64[4]>) -> ()");
  }

  @Test
  void nonCanonicalTextIsReadAndWrittenCanonically() {
    FunctionSignature s = V0RawSignature.parse("I6!S3!t0R8!B5!t0d1");
    assertThat(s)
        .isEqualTo(sig(List.of(new Scalar(ElementType.F32)), List.of(buffer(ElementType.F32, 1))));
    assertThat(V0RawSignature.encode(s)).isEqualTo("I4!S1!R6!B3!d1");
  }

  // ---------------------------------------------------------------- encoder limits

  @Test
  void unexpressibleModelsAreIllegalArguments() {
    List<AbiType> bad =
        List.of(
            new AbiType.Sequence(AbiType.SequenceKind.LIST, List.of(new Scalar(ElementType.I32))),
            new AbiType.Dict(List.of()),
            new AbiType.Named("x", new Scalar(ElementType.I32)),
            new AbiType.Any(),
            new AbiType.HomogeneousList(new Scalar(ElementType.I32)),
            new AbiType.Ref("hal.fence"),
            new NdArray(ElementType.F32, Shape.unranked()),
            buffer(ElementType.F32, 1L << 31),
            buffer(ElementType.INDEX, 2),
            new Scalar(ElementType.integer(3)),
            new Scalar(ElementType.COMPLEX64),
            new AbiType.Unsupported("pystr", "\"pystr\"", ReflectionFormat.IREE_ABI_JSON, "no"));
    for (AbiType t : bad) {
      FunctionSignature s = FunctionSignature.of(List.of(), List.of(t), ReflectionFormat.V0_RAW);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> V0RawSignature.encode(s));
      assertThat(e).isNotInstanceOf(AbiParseException.class);
      assertThat(e)
          .hasMessageThat()
          .startsWith("cannot write result 0 (" + t + ") as a V0 raw signature: ");
      assertThrows(IllegalArgumentException.class, () -> V0RawSignature.pretty(s));
      assertThrows(IllegalArgumentException.class, () -> V0RawSignature.encodeType(t));
    }
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                V0RawSignature.encode(
                    FunctionSignature.of(
                        List.of(new AbiType.Any()), List.of(), ReflectionFormat.V0_RAW)));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "cannot write argument 0 (any) as a V0 raw signature: V0 raw signatures hold only"
                + " buffers, scalars, opaque refs and unrecognized types");
    FunctionSignature async =
        sig(List.of(), List.of()).withModel(FunctionSignature.CallingModel.COARSE_FENCES);
    assertThrows(IllegalArgumentException.class, () -> V0RawSignature.encode(async));
  }

  // ---------------------------------------------------------------- errors

  @Test
  void malformedSignatures() {
    assertThat(fails("").getMessage())
        .isEqualTo(
            "V0 raw signature (f) at offset 0: expected the inputs span I<length>! at the start,"
                + " found the end of the text");
    assertThat(fails("R1!I1!").getMessage())
        .isEqualTo(
            "V0 raw signature (f) at offset 0: expected the inputs span I<length>! at the start,"
                + " found span 'R' (R1!)");
    assertThat(fails("I1!").detail())
        .isEqualTo("expected the results span R<length>!, found the end of the text");
    assertThat(fails("I1!R1!R1!").detail())
        .isEqualTo("expected the end of the signature after the results span R, found 'R'");
    assertThat(fails("I1!_1").detail())
        .isEqualTo("expected the results span R<length>!, found integer component '_1'");
    AbiParseException e = fails("I4!X1!R1!");
    assertThat(e.position()).isEqualTo("offset 3");
    assertThat(e.detail())
        .isEqualTo(
            "expected an item (B buffer, S scalar, O ref or U unrecognized), found span 'X' (X1!)");
    assertThat(fails("I3!_0R1!").detail())
        .isEqualTo(
            "expected an item (B buffer, S scalar, O ref or U unrecognized), found integer"
                + " component '_0'");
  }

  @Test
  void malformedItems() {
    assertThat(fails("I6!B3!x1R1!").detail())
        .isEqualTo(
            "expected a type code t<code> or a dimension d<dim> in buffer B, found integer"
                + " component 'x1'");
    assertThat(fails("I8!B5!d1t2R1!").detail())
        .isEqualTo(
            "expected the type code t<code> at most once and before the dims of buffer B, found"
                + " integer component 't2'");
    assertThat(fails("I8!B5!t2t2R1!").detail())
        .startsWith("expected the type code t<code> at most once");
    assertThat(fails("I7!B4!d-2R1!").detail())
        .isEqualTo(
            "expected a dimension d<size> with size >= 0, or d-1 for a dynamic one, found d-2");
    AbiParseException e = fails("I7!B4!t12R1!");
    assertThat(e.position()).isEqualTo("offset 6");
    assertThat(e.detail())
        .isEqualTo(
            "expected a type code t0..t11 (f32, f16, f64, bf16, sint8..sint64, uint8..uint64),"
                + " found t12");
    assertThat(fails("I7!S4!t-1R1!").detail()).contains("found t-1");
    assertThat(fails("I6!S3!d1R1!").detail())
        .isEqualTo("expected a type code t<code> in scalar S, found integer component 'd1'");
    assertThat(fails("I8!S5!t1t1R1!").detail())
        .isEqualTo("expected the end of scalar S after its type code, found 't'");
    assertThat(fails("I5!O2!xR1!").detail())
        .isEqualTo(
            "expected an empty span (an opaque ref object is written O1!), found contents O2!x");
    assertThat(fails("I5!U2!xR1!").detail())
        .isEqualTo(
            "expected an empty span (an unrecognized type is written U1!), found contents U2!x");
  }

  @Test
  void historicBuggyMergedSignatureIsRejected() {
    // Per-argument I/R fragments nested inside the I span: the 2019 merge pass's expected output.
    AbiParseException e = fails("I27!I10!B7!t7d4d4I10!B7!t7d5d5R14!R10!B7!t7d5d5");
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "V0 raw signature (f) at offset 4: expected an item (B buffer, S scalar, O ref or U"
                + " unrecognized), found span 'I' (I10!B7!t7d4d4); I and R spans appear only at"
                + " the top level, once each");
  }

  // ---------------------------------------------------------------- reflection holder

  @Test
  void reflectionAttributes() {
    Optional<V0Reflection> none =
        V0Reflection.from(Map.of("iree.abi", "{\"a\":[],\"r\":[]}", "abi", "other"));
    assertThat(none).isEmpty();

    V0Reflection raw =
        V0Reflection.from(Map.of("fv", "1", "f", "I6!S3!t6R6!S3!t2", "fbr", "alloc_results"))
            .orElseThrow();
    assertThat(raw.rawVersion()).hasValue("1");
    assertThat(raw.raw())
        .hasValue(sig(List.of(new Scalar(ElementType.SI32)), List.of(new Scalar(ElementType.F64))));
    assertThat(raw.resultAllocator()).hasValue("alloc_results");
    assertThat(raw.sip()).isEmpty();
    assertThat(raw.abi()).isEmpty();

    V0Reflection sip =
        V0Reflection.from(
                Map.of(
                    "fv", "1",
                    "f", "I11!B3!d1B3!d1R6!B3!d1",
                    "abi", "sip",
                    "abiv", "1",
                    "sip", "I12!S9!k0_0k1_1R3!_0"))
            .orElseThrow();
    assertThat(sip.abi()).hasValue("sip");
    assertThat(sip.sipVersion()).hasValue("1");
    assertThat(sip.sip()).hasValue(SipSignature.of(SipSignature.leaves(2), SipSignature.leaf(0)));
    assertThat(sip.raw().orElseThrow().arguments()).hasSize(2);

    assertThat(
            V0Reflection.from(Map.of("abi", "sip", "sipv", "2", "abiv", "1"))
                .orElseThrow()
                .sipVersion())
        .hasValue("2");
    AbiParseException e =
        assertThrows(AbiParseException.class, () -> V0Reflection.from(Map.of("f", "I1!R2!")));
    assertThat(e.format()).isEqualTo(ReflectionFormat.V0_RAW);
  }
}
