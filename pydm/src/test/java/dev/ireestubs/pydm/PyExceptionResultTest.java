package dev.ireestubs.pydm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.IreeException;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class PyExceptionResultTest {

  /** The pre-defined exception codes of the LowerToIREE.md notes. */
  private static final Map<Integer, String> NOTES = new LinkedHashMap<>();

  /** The Java base chosen for each (see PyExceptionCode). */
  private static final Map<String, Class<?>> BASES = new LinkedHashMap<>();

  static {
    NOTES.put(-1, "StopIteration");
    NOTES.put(-2, "StopAsyncIteration");
    NOTES.put(-3, "RuntimeError");
    NOTES.put(-4, "ValueError");
    NOTES.put(-5, "NotImplementedError");
    NOTES.put(-6, "KeyError");
    NOTES.put(-7, "IndexError");
    NOTES.put(-8, "AttributeError");
    NOTES.put(-9, "TypeError");
    NOTES.put(-10, "UnboundLocalError");
    BASES.put("StopIteration", NoSuchElementException.class);
    BASES.put("StopAsyncIteration", NoSuchElementException.class);
    BASES.put("RuntimeError", IreeInvocationException.class);
    BASES.put("ValueError", IllegalArgumentException.class);
    BASES.put("NotImplementedError", UnsupportedOperationException.class);
    BASES.put("KeyError", NoSuchElementException.class);
    BASES.put("IndexError", IndexOutOfBoundsException.class);
    BASES.put("AttributeError", UnsupportedOperationException.class);
    BASES.put("TypeError", IllegalArgumentException.class);
    BASES.put("UnboundLocalError", IllegalStateException.class);
  }

  @Test
  void thePredefinedCodesAreThoseOfTheNotes() {
    Map<Integer, String> actual = new LinkedHashMap<>();
    for (PyExceptionCode c : PyExceptionCode.values()) {
      actual.put(c.code(), c.pythonName());
    }
    assertThat(actual).containsExactlyEntriesIn(NOTES).inOrder();
  }

  @ParameterizedTest
  @EnumSource(PyExceptionCode.class)
  void everyPredefinedCodeThrowsItsOwnClassWithTheNaturalJavaBase(PyExceptionCode code) {
    RuntimeException e =
        assertThrows(RuntimeException.class, () -> PyExceptionResult.check(code.code(), "m.f"));
    assertThat(e.getClass().getSimpleName()).isEqualTo("Py" + code.pythonName());
    assertThat(e.getClass().getPackageName()).isEqualTo("dev.ireestubs.pydm");
    assertThat(e).isInstanceOf(BASES.get(code.pythonName()));
    assertThat(code.javaBase()).isEqualTo(BASES.get(code.pythonName()));
    assertThat(e).isInstanceOf(PyException.class);
    PyException p = (PyException) e;
    assertThat(p.code()).isEqualTo(code.code());
    assertThat(p.pythonName()).isEqualTo(code.pythonName());
    assertThat(p.function()).isEqualTo("m.f");
    assertThat(p.predefined()).isEqualTo(Optional.of(code));
    assertThat(p.asRuntimeException()).isSameInstanceAs(e);
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "m.f raised " + code.pythonName() + " (PyDM exception_result " + code.code() + ")");
    assertThat(code.newException("m.g").getClass()).isEqualTo(e.getClass());
    assertThat(PyExceptionCode.fromCode(code.code())).isEqualTo(Optional.of(code));
  }

  @Test
  void javaHandlersCatchTheNaturalExceptions() {
    assertThrows(NoSuchElementException.class, () -> PyExceptionResult.check(-1, "it.next"));
    assertThrows(IndexOutOfBoundsException.class, () -> PyExceptionResult.check(-7, "xs.get"));
    assertThrows(IllegalArgumentException.class, () -> PyExceptionResult.check(-4, "parse"));
    assertThrows(IreeException.class, () -> PyExceptionResult.check(-3, "run"));
  }

  @Test
  void zeroReturnsNormally() {
    PyExceptionResult.check(0, "m.f");
    assertThrows(IllegalArgumentException.class, () -> PyExceptionResult.exception(0, "m.f"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3, Integer.MAX_VALUE})
  void positiveCodesAreExceptionTableIndices(int code) {
    PyRaisedException e =
        assertThrows(PyRaisedException.class, () -> PyExceptionResult.check(code, "m.f"));
    assertThat(e.tableIndex()).isEqualTo(code);
    assertThat(e.code()).isEqualTo(code);
    assertThat(e.pythonName()).isEqualTo("Exception");
    assertThat(e.predefined()).isEmpty();
    assertThat(e).isInstanceOf(IreeInvocationException.class);
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "m.f raised the exception in slot "
                + code
                + " of its module's exception table (PyDM"
                + " exception_result "
                + code
                + "); its type and details stay in the module");
  }

  @ParameterizedTest
  @ValueSource(ints = {-11, -100, Integer.MIN_VALUE})
  void undefinedNegativeCodesAreReported(int code) {
    PyUnknownException e =
        assertThrows(PyUnknownException.class, () -> PyExceptionResult.check(code, "m.f"));
    assertThat(e.code()).isEqualTo(code);
    assertThat(e.predefined()).isEmpty();
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThat(e.path()).isEqualTo("m.f: exception_result");
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "m.f: exception_result: the function raised an exception with code "
                + code
                + ", which is not a predefined PyDM exception code (-1 StopIteration .. -10"
                + " UnboundLocalError)");
  }

  @Test
  void constructorsRefuseCodesOfOtherKinds() {
    assertThrows(IllegalArgumentException.class, () -> new PyRaisedException("f", 0));
    assertThrows(IllegalArgumentException.class, () -> new PyRaisedException("f", -1));
    assertThrows(IllegalArgumentException.class, () -> new PyUnknownException("f", -1));
    assertThrows(IllegalArgumentException.class, () -> new PyUnknownException("f", 1));
  }
}
