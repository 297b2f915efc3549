package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.SipSignature;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.abi.V0RawSignature;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * One call shape for every calling format: {@link DynamicFunction} over the native-ABI and SIP
 * codecs, chosen explicitly or from the function's reflection, and over a codec of one's own. (The
 * PyDM codec: {@code PyDmFunctionTest}.)
 */
class CallShapeTest {

  /** V0 raw signature: (si32, si32) -> (si32). */
  private static final String RAW = "I11!S3!t6S3!t6R6!S3!t6";

  /** SIP: inputs {a: raw 0, b: raw 1}, results {s: raw 0}. */
  private static final String SIP = "I17!D13!K2!a_0K2!b_1R10!D7!K2!s_0";

  /** A backend function {@code m.f} with the given reflection that runs {@code body}. */
  private static final class Fake implements BackendFunction {
    final Map<String, String> reflection;
    final String cconv;
    final Function<VmList, VmList> body;
    VmList results;

    Fake(Map<String, String> reflection, String cconv, Function<VmList, VmList> body) {
      this.reflection = reflection;
      this.cconv = cconv;
      this.body = body;
    }

    @Override
    public String qualifiedName() {
      return "m.f";
    }

    @Override
    public String callingConvention() {
      return cconv;
    }

    @Override
    public Map<String, String> reflection() {
      return reflection;
    }

    @Override
    public VmList invoke(VmList arguments) {
      results = body.apply(arguments);
      return results;
    }
  }

  private static VmList sum(VmList args) {
    return VmList.of(VmValue.i32(args.getValue(0).asI32() + args.getValue(1).asI32()));
  }

  private static SipStructure structure() {
    return SipStructure.of(SipSignature.parse(SIP), V0RawSignature.parse(RAW));
  }

  @Test
  void everyFormatTakesPositionalAndNamedArgumentsTheSameWay() {
    FunctionSignature native0 = AbiJson.parseFunction("{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"]}");
    DynamicFunction plain =
        DynamicFunction.of(new Fake(Map.of(), "0ii_i", CallShapeTest::sum), native0);
    DynamicFunction sip =
        DynamicFunction.sip(new Fake(Map.of(), "0ii_i", CallShapeTest::sum), structure());

    assertThat(plain.call(2, 3)).isEqualTo(5);
    assertThat(plain.call(List.of(2, 3), Map.of())).isEqualTo(5);
    assertThat(sip.call(List.of(), Map.of("a", 2, "b", 3))).isEqualTo(Map.of("s", 5));
    assertThat(plain.codec().toString()).isEqualTo(native0.toString());
    assertThat(sip.codec().toString()).startsWith("SIP ");
  }

  @Test
  void theFormatIsReadFromTheFunctionsReflection() {
    DynamicFunction sip =
        DynamicFunction.of(new Fake(Map.of("f", RAW, "sip", SIP), "0ii_i", CallShapeTest::sum));
    assertThat(sip.call(List.of(), Map.of("a", 4, "b", 5))).isEqualTo(Map.of("s", 9));

    DynamicFunction raw =
        DynamicFunction.of(new Fake(Map.of("f", RAW), "0ii_i", CallShapeTest::sum));
    assertThat(raw.call(4, 5)).isEqualTo(9);

    DynamicFunction json =
        DynamicFunction.of(
            new Fake(
                Map.of("iree.abi", "{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"]}"),
                "0ii_i",
                CallShapeTest::sum));
    assertThat(json.call(4, 5)).isEqualTo(9);

    // The calling convention alone: r slots take lists, as IREE's Python invoker does.
    DynamicFunction cconvOnly =
        DynamicFunction.of(new Fake(Map.of(), "0r_r", args -> VmList.of(args.getList(0))));
    assertThat(cconvOnly.call(List.of(1, 2))).isEqualTo(List.of(1, 2));
  }

  @Test
  void aFunctionWithNoUsableReflectionIsRefusedByName() {
    IreeSignatureMismatchException none =
        assertThrows(
            IreeSignatureMismatchException.class,
            () -> DynamicFunction.of(new Fake(Map.of(), "", CallShapeTest::sum)));
    assertThat(none).hasMessageThat().startsWith("m.f cannot be called dynamically: no usable");
    assertThat(none).hasMessageThat().contains("DynamicFunction.of(function, signature)");

    IreeSignatureMismatchException bad =
        assertThrows(
            IreeSignatureMismatchException.class,
            () ->
                DynamicFunction.of(new Fake(Map.of("iree.abi", "{"), "0ii_i", CallShapeTest::sum)));
    assertThat(bad).hasMessageThat().startsWith("m.f cannot be called dynamically:");
    assertThat(bad).hasCauseThat().isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCodecOfOnesOwnHasTheSameShape() {
    CallCodec doubling =
        new CallCodec() {
          @Override
          public VmList encodeArguments(String function, List<?> positional, Map<String, ?> named) {
            return VmList.of(
                VmValue.i32((Integer) positional.get(0)), VmValue.i32((Integer) named.get("y")));
          }

          @Override
          public Object decodeResults(String function, VmList results) {
            return function + "=" + 2 * results.getValue(0).asI32();
          }
        };
    DynamicFunction f =
        DynamicFunction.of(new Fake(Map.of(), "0ii_i", CallShapeTest::sum), doubling);
    assertThat(f.call(List.of(1), Map.of("y", 2))).isEqualTo("f=6");
    assertThat(f.codec()).isSameInstanceAs(doubling);
  }

  @Test
  void aSipResultThatFailsToDecodeClosesTheResultList() {
    AtomicInteger released = new AtomicInteger();
    Fake f =
        new Fake(
            Map.of(),
            "0ii_i",
            args ->
                VmList.of(OpaqueRef.withRelease("hal.fence", "fence", released::incrementAndGet)));
    DynamicFunction sip = DynamicFunction.sip(f, structure());
    IreeValueException e =
        assertThrows(IreeValueException.class, () -> sip.call(List.of(), Map.of("a", 1, "b", 2)));
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThat(e).hasMessageThat().startsWith("f: result.s: expected");
    assertThat(f.results.isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(1);
  }

  @Test
  void aSipResultListOfTheWrongSizeIsClosedToo() {
    AtomicInteger released = new AtomicInteger();
    Fake f =
        new Fake(
            Map.of(),
            "0ii_i",
            args ->
                VmList.of(
                    FloatArray.zeros(1).asBufferView(),
                    OpaqueRef.withRelease("hal.fence", "fence", released::incrementAndGet)));
    IreeValueException e =
        assertThrows(
            IreeValueException.class,
            () -> DynamicFunction.sip(f, structure()).call(List.of(), Map.of("a", 1, "b", 2)));
    assertThat(e).hasMessageThat().contains("expected 1 result but the function returned 2");
    assertThat(f.results.isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(1);
  }

  @Test
  void theSipCodecFlattensAndRebuilds() {
    Fake f = new Fake(Map.of(), "0ii_i", CallShapeTest::sum);
    DynamicFunction shape = DynamicFunction.sip(f, structure());
    assertThat(shape.call(List.of(), Map.of("a", 1, "b", 2))).isEqualTo(Map.of("s", 3));
    CallCodec codec = CallCodec.sip(structure());
    VmList flat = codec.encodeArguments("f", List.of(), Map.of("b", 7, "a", 6));
    assertThat(flat.getValue(0).asI32()).isEqualTo(6);
    assertThat(flat.getValue(1).asI32()).isEqualTo(7);
    assertThat(codec.decodeResults("f", VmList.of(VmValue.i32(4)))).isEqualTo(Map.of("s", 4));
  }
}
