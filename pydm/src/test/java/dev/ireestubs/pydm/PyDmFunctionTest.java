package dev.ireestubs.pydm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.host.HostFunction;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PyDM functions registered in a host module exactly as IREE lowers them (the exception_result
 * first, then the value; objects as records), called through {@link PyDmFunction}.
 */
class PyDmFunctionTest {

  private static VmList ok(Object value) {
    return VmList.of(VmValue.i32(0), value);
  }

  private static VmList raise(int code, Object placeholder) {
    return VmList.of(VmValue.i32(code), placeholder);
  }

  private static HostModule.Builder register(
      HostModule.Builder b, String name, String cconv, HostFunction body) {
    return b.function(name, CallingConvention.parse(cconv).toSignature(), body);
  }

  private static HostModule module() {
    HostModule.Builder b = HostModule.builder("m");
    // def add(a: int32, b: int32) -> int32, unboxed.
    register(
        b,
        "add",
        "0ii_ii",
        args -> ok(VmValue.i32(args.getValue(0).asI32() + args.getValue(1).asI32())));
    // def pair(a: object, b: object) -> object: returns the tuple (a, b), boxed.
    register(
        b,
        "pair",
        "0rr_ir",
        args ->
            ok(
                PyObjects.encode(
                    PyTuple.of(
                        PyObjects.decode(args.getList(0)), PyObjects.decode(args.getList(1))))));
    // def first(xs: object) -> object: xs[0], IndexError when empty, TypeError when not a list.
    register(
        b,
        "first",
        "0r_ir",
        args -> {
          Object xs = PyObjects.decode(args.getList(0));
          if (!(xs instanceof List) || xs instanceof PyTuple) {
            return raise(PyTypeError.CODE, VmList.variant(0));
          }
          if (((List<?>) xs).isEmpty()) {
            return raise(PyIndexError.CODE, VmList.variant(0));
          }
          return ok(PyObjects.encode(((List<?>) xs).get(0)));
        });
    // def fail(code: int32) -> int32: returns exception_result `code` with a zero placeholder.
    register(b, "fail", "0i_ii", args -> raise(args.getValue(0).asI32(), VmValue.i32(0)));
    // def identity(x: object) -> object: the very record it was given.
    register(b, "identity", "0r_ir", args -> ok(args.getList(0)));
    // def half(x: float64) -> float64.
    register(b, "half", "0F_iF", args -> ok(VmValue.f64(args.getValue(0).asF64() / 2)));
    // def widen(x: int64) -> int64.
    register(b, "widen", "0I_iI", args -> ok(VmValue.i64(args.getValue(0).asI64() << 32)));
    // def items(n: int32) -> list, unboxed: a list<?> of records with no type code of its own.
    register(
        b,
        "items",
        "0i_ir",
        args -> {
          List<Object> xs = new ArrayList<>();
          for (int i = 0; i < args.getValue(0).asI32(); i++) {
            xs.add(i);
          }
          return ok(PyObjects.encodeElements(xs, "items"));
        });
    // def none() -> None: None travels unboxed as an i32 placeholder.
    register(b, "none", "0v_ii", args -> ok(VmValue.i32(0)));
    return b.build();
  }

  @Test
  void unboxedValuesGoInAndComeOut() {
    try (HostModule m = module()) {
      PyDmFunction add = PyDmFunction.of(m.function("m.add"));
      assertThat(add.argumentKinds()).containsExactly(VmKind.I32, VmKind.I32).inOrder();
      assertThat(add.valueKind()).isEqualTo(VmKind.I32);
      assertThat(add.call(2, 3)).isEqualTo(5);
      assertThat(add.call((byte) 2, true)).isEqualTo(3);
      assertThat(PyDmFunction.of(m.function("m.half")).call(3.0)).isEqualTo(1.5);
      assertThat(PyDmFunction.of(m.function("m.widen")).call(1)).isEqualTo(1L << 32);
      assertThat(PyDmFunction.of(m.function("m.none")).call()).isEqualTo(0);
      assertThat(add.toString()).isEqualTo("m.add (PyDM, 0ii_ii)");
    }
  }

  @Test
  void objectsGoInAsRecordsAndComeOutDecoded() {
    try (HostModule m = module()) {
      PyDmFunction pair = PyDmFunction.of(m.function("m.pair"));
      Object result = pair.call(List.of(1, 2.5f), PyHalf.of(0.5f));
      assertThat(result).isInstanceOf(PyTuple.class);
      assertThat(result).isEqualTo(PyTuple.of(List.of(1, 2.5f), PyHalf.of(0.5f)));
      assertThat(((List<?>) result).get(0)).isNotInstanceOf(PyTuple.class);
      assertThat(pair.call(null, PyObject.notAssigned()))
          .isEqualTo(PyTuple.of(null, PyObject.notAssigned()));
      PyDmFunction first = PyDmFunction.of(m.function("m.first"));
      assertThat(first.call(List.of(PyObject.unsigned(PyTypeCode.UINTEGER1, 200), 3)))
          .isEqualTo(PyObject.unsigned(PyTypeCode.UINTEGER1, 200));
    }
  }

  @Test
  void unboxedListResultsAreReadRaw() {
    try (HostModule m = module()) {
      PyDmFunction items = PyDmFunction.of(m.function("m.items"));
      Object raw = items.callRaw(3);
      assertThat(raw).isInstanceOf(VmList.class);
      assertThat(PyObjects.decodeElements((VmList) raw, "items"))
          .containsExactly(0, 1, 2)
          .inOrder();
      // call() reads a list<?> as an object record, and says why this one is not.
      IreeValueException e = resultError(() -> items.call(2));
      assertThat(e)
          .hasMessageThat()
          .startsWith("m.items: result.code: the type code is an i32 value, got a list<?>");
    }
  }

  @Test
  void idsSurviveTheTripThroughTheModule() {
    try (HostModule m = module()) {
      PyDmFunction identity = PyDmFunction.of(m.function("m.identity"));
      Object value =
          PyObject.of(
                  PyTypeCode.LIST,
                  List.of(PyObject.of(PyTypeCode.INTEGER, 7).withId(11), PyTuple.of(true)))
              .withId(12);
      assertThat(identity.call(value)).isEqualTo(value);
      // A record built by hand is passed as it is.
      VmList record = VmList.of(VmValue.i32(0x13), VmValue.i64(9), VmValue.i64(99));
      assertThat(identity.call(record)).isEqualTo(PyObject.of(PyTypeCode.INTEGER8, 9L).withId(99));
    }
  }

  @Test
  void exceptionResultsBecomeTheMappedExceptions() {
    try (HostModule m = module()) {
      PyDmFunction first = PyDmFunction.of(m.function("m.first"));
      PyIndexError index = assertThrows(PyIndexError.class, () -> first.call(List.of()));
      assertThat(index).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(index.function()).isEqualTo("m.first");
      assertThat(index)
          .hasMessageThat()
          .isEqualTo("m.first raised IndexError (PyDM exception_result -7)");
      assertThrows(PyTypeError.class, () -> first.call(PyTuple.of(1)));
    }
  }

  @ParameterizedTest
  @EnumSource(PyExceptionCode.class)
  void everyPredefinedCodeArrivesThroughTheModule(PyExceptionCode code) {
    try (HostModule m = module()) {
      PyDmFunction fail = PyDmFunction.of(m.function("m.fail"));
      RuntimeException e = assertThrows(RuntimeException.class, () -> fail.call(code.code()));
      assertThat(e).isInstanceOf(code.javaBase());
      assertThat(((PyException) e).predefined()).hasValue(code);
      assertThat(((PyException) e).function()).isEqualTo("m.fail");
    }
  }

  @Test
  void tableIndicesAndUndefinedCodesArriveThroughTheModule() {
    try (HostModule m = module()) {
      PyDmFunction fail = PyDmFunction.of(m.function("m.fail"));
      assertThat(assertThrows(PyRaisedException.class, () -> fail.call(4)).tableIndex())
          .isEqualTo(4);
      assertThat(assertThrows(PyUnknownException.class, () -> fail.call(-42)).code())
          .isEqualTo(-42);
      assertThat(fail.call(0)).isEqualTo(0);
      // Idiomatic Java: a StopIteration ends a loop.
      assertThrows(NoSuchElementException.class, () -> fail.call(PyStopIteration.CODE));
    }
  }

  @Test
  void functionsNotFollowingTheConventionAreRefusedAtBindTime() {
    HostModule.Builder b = HostModule.builder("x");
    register(b, "plain", "0ii_i", args -> VmList.of(VmValue.i32(0)));
    register(b, "refFirst", "0r_ri", args -> VmList.of(VmList.of(), VmValue.i32(0)));
    register(
        b, "three", "0v_iii", args -> VmList.of(VmValue.i32(0), VmValue.i32(0), VmValue.i32(0)));
    try (HostModule m = b.build()) {
      assertThat(
              assertThrows(
                  IreeSignatureMismatchException.class,
                  () -> PyDmFunction.of(m.function("x.plain"))))
          .hasMessageThat()
          .isEqualTo(
              "x.plain does not follow the PyDM calling convention: its results (calling"
                  + " convention 0ii_i) are not the i32 exception_result followed by one value, as"
                  + " in 0r_ir");
      assertThrows(
          IreeSignatureMismatchException.class, () -> PyDmFunction.of(m.function("x.refFirst")));
      assertThrows(
          IreeSignatureMismatchException.class, () -> PyDmFunction.of(m.function("x.three")));
    }
    assertThat(
            assertThrows(
                IreeSignatureMismatchException.class, () -> PyDmFunction.of(fake("", ok(null)))))
        .hasMessageThat()
        .contains("it has no calling convention");
    assertThat(
            assertThrows(
                IreeSignatureMismatchException.class,
                () -> PyDmFunction.of(fake("0q_ii", ok(null)))))
        .hasMessageThat()
        .contains("does not parse");
    assertThat(
            assertThrows(
                IreeSignatureMismatchException.class,
                () -> PyDmFunction.of(fake("0CiD_ii", ok(null)))))
        .hasMessageThat()
        .contains("is variadic");
  }

  @Test
  void badArgumentsAreReportedWithTheirPath() {
    try (HostModule m = module()) {
      PyDmFunction add = PyDmFunction.of(m.function("m.add"));
      assertThat(argumentError(() -> add.call(1)))
          .hasMessageThat()
          .isEqualTo("m.add: expected 2 arguments but got 1");
      IreeValueException wide = argumentError(() -> add.call(1, 2L));
      assertThat(wide.path()).isEqualTo("m.add: arg1");
      assertThat(wide)
          .hasMessageThat()
          .isEqualTo(
              "m.add: arg1: an unboxed i32 argument takes a Boolean, Byte, Short or Integer, got a"
                  + " Long (2)");
      argumentError(() -> add.call(null, 1));
      argumentError(() -> add.call(PyObject.of(PyTypeCode.INTEGER, 1).withId(1), 1));
      assertThat(add.call(PyObject.unsigned(PyTypeCode.UINTEGER2, 65535), 1)).isEqualTo(0);

      PyDmFunction pair = PyDmFunction.of(m.function("m.pair"));
      IreeValueException str = argumentError(() -> pair.call(List.of("s"), 1));
      assertThat(str.path()).isEqualTo("m.pair: arg0[0]");
      assertThat(str).hasCauseThat().isInstanceOf(PyDmUnsupportedTypeException.class);
      assertThat(str).hasMessageThat().contains("of type Str (0x4) has no object-record form yet");
      argumentError(() -> pair.call(Map.of(), 1));
      argumentError(() -> PyDmFunction.of(m.function("m.half")).call(1));
      argumentError(() -> PyDmFunction.of(m.function("m.widen")).call(1.0));
    }
  }

  @Test
  void malformedResultsAreReportedWithTheirPath() {
    IreeValueException count =
        resultError(() -> PyDmFunction.of(fake("0v_ii", VmList.of(VmValue.i32(0)))).call());
    assertThat(count)
        .hasMessageThat()
        .isEqualTo(
            "fake.f: results: a PyDM function returns 2 results (the i32 exception_result, then"
                + " the value), got 1: [i32 0]");
    IreeValueException code =
        resultError(
            () -> PyDmFunction.of(fake("0v_ii", VmList.of(VmValue.i64(0), VmValue.i32(0)))).call());
    assertThat(code)
        .hasMessageThat()
        .isEqualTo("fake.f: exception_result: expected an i32 value, got i64 0");
    IreeValueException record =
        resultError(
            () ->
                PyDmFunction.of(
                        fake("0v_ir", ok(VmList.of(VmValue.i32(0x3), VmList.of(VmValue.i32(1))))))
                    .call());
    assertThat(record.path()).isEqualTo("fake.f: result[0]");
    assertThat(record).hasCauseThat().isInstanceOf(PyDmCodecException.class);
    assertThat(record)
        .hasMessageThat()
        .isEqualTo(
            "fake.f: result[0]: a list or tuple element is an object record (a list<?>), got i32"
                + " 1");
    IreeValueException todo =
        resultError(
            () ->
                PyDmFunction.of(fake("0v_ir", ok(VmList.of(VmValue.i32(0x4), VmList.of()))))
                    .call());
    assertThat(todo).hasCauseThat().isInstanceOf(PyDmUnsupportedTypeException.class);
    resultError(() -> PyDmFunction.of(fake("0v_ir", ok(null))).call());
    // On an exception the value slot is not read, whatever it holds.
    assertThrows(
        PyKeyError.class, () -> PyDmFunction.of(fake("0v_ir", raise(-6, VmValue.f32(1)))).call());
  }

  @Test
  void expectUnwrapsWhatStubsNeed() {
    assertThat(PyDm.expect(5, Integer.class, "r")).isEqualTo(5);
    assertThat(PyDm.expect(PyObject.of(PyTypeCode.INTEGER, 5L), Long.class, "r")).isEqualTo(5L);
    assertThat(PyDm.expect(1, Boolean.class, "r")).isTrue();
    assertThat(PyDm.expect(null, Object.class, "r")).isNull();
    assertThat(resultError(() -> PyDm.expect(2, Boolean.class, "m.f: result")))
        .hasMessageThat()
        .isEqualTo("m.f: result: expected a Boolean, got an Integer (2)");
    resultError(() -> PyDm.expect(PyObject.of(PyTypeCode.INTEGER, 5L).withId(1), Long.class, "r"));
  }

  /** A backend function with a fixed calling convention and canned results. */
  @Test
  void itHasTheOneCallShapeAndRefusesNamedArguments() {
    try (HostModule m = module()) {
      DynamicFunction add = PyDmFunction.of(m.function("m.add"));
      assertThat(add.call(List.of(2, 3), Map.of())).isEqualTo(5);
      assertThat(add.codec().toString()).isEqualTo("PyDM");
      IreeValueException e =
          assertThrows(IreeValueException.class, () -> add.call(List.of(2), Map.of("b", 3)));
      assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
      assertThat(e)
          .hasMessageThat()
          .isEqualTo("m.add: a PyDM function takes its arguments by position; none is named [b]");
    }
  }

  @Test
  void aValueThatFailsToDecodeClosesTheResultList() {
    AtomicInteger released = new AtomicInteger();
    VmList results =
        VmList.of(
            VmValue.i32(0), OpaqueRef.withRelease("hal.fence", "fence", released::incrementAndGet));
    PyDmFunction f = PyDmFunction.of(fake("0v_ir", results));
    IreeValueException e = assertThrows(IreeValueException.class, f::call);
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThat(e).hasMessageThat().startsWith("fake.f: result: expected an unboxed value");
    assertThat(results.isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(1);
  }

  @Test
  void aMalformedExceptionResultClosesTheResultList() {
    AtomicInteger released = new AtomicInteger();
    VmList results =
        VmList.of(
            OpaqueRef.withRelease("hal.fence", "fence", released::incrementAndGet), VmValue.i32(0));
    PyDmFunction f = PyDmFunction.of(fake("0v_ir", results));
    resultError(f::callRaw);
    assertThat(results.isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(1);
  }

  @Test
  void aRaisedExceptionClosesTheResultList() {
    AtomicInteger released = new AtomicInteger();
    VmList results =
        VmList.of(
            VmValue.i32(PyValueError.CODE),
            OpaqueRef.withRelease("hal.fence", "placeholder", released::incrementAndGet));
    PyDmFunction f = PyDmFunction.of(fake("0v_ir", results));
    assertThrows(PyValueError.class, f::call);
    assertThat(results.isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(1);
  }

  private static BackendFunction fake(String cconv, VmList results) {
    List<VmList> calls = new ArrayList<>();
    return new BackendFunction() {
      @Override
      public String qualifiedName() {
        return "fake.f";
      }

      @Override
      public String callingConvention() {
        return cconv;
      }

      @Override
      public Map<String, String> reflection() {
        return Map.of();
      }

      @Override
      public VmList invoke(VmList arguments) {
        calls.add(arguments);
        return results;
      }
    };
  }

  /** The argument-side {@link IreeValueException} {@code call} throws. */
  private static IreeValueException argumentError(Executable call) {
    IreeValueException e = assertThrows(IreeValueException.class, call);
    assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    return e;
  }

  /** The result-side {@link IreeValueException} {@code call} throws. */
  private static IreeValueException resultError(Executable call) {
    IreeValueException e = assertThrows(IreeValueException.class, call);
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    return e;
  }
}
