package dev.ireestubs.pydm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PyObjectTest {

  @Test
  void aValueMustSuitItsTypeCode() {
    assertThat(assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.INTEGER4, 5L)))
        .hasMessageThat()
        .isEqualTo("PyObject: an Integer4 (0x12) record holds an Integer (i32), got a Long (5)");
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.NONE, 0));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.LIST, PyHalf.of(1f)));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.BOOL, 2));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.INTEGER, 1.0));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.REAL, 1));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.FLOAT2, (short) 1));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.BFLOAT2, PyHalf.of(1)));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.FLOAT4, 1.0));
    assertThrows(PyDmCodecException.class, () -> PyObject.of(PyTypeCode.UINTEGER1, 1));
    assertThrows(NullPointerException.class, () -> new PyObject(null, null, OptionalLong.empty()));
  }

  @Test
  void listValuesAreCopied() {
    List<Object> source = new ArrayList<>(List.of(1, 2));
    PyObject list = PyObject.of(PyTypeCode.LIST, source);
    PyObject tuple = PyObject.of(PyTypeCode.TUPLE, source);
    source.add(3);
    assertThat(list.value()).isEqualTo(List.of(1, 2));
    assertThat(tuple.value()).isInstanceOf(PyTuple.class);
    assertThat(tuple.value()).isEqualTo(List.of(1, 2));
    assertThrows(UnsupportedOperationException.class, () -> ((List<?>) list.value()).clear());
  }

  @Test
  void unsignedValuesAreCheckedAndZeroExtended() {
    assertThat(PyObject.unsigned(PyTypeCode.UINTEGER1, 255).value()).isEqualTo((byte) -1);
    assertThat(PyObject.unsigned(PyTypeCode.UINTEGER1, 255).unsignedValue()).isEqualTo(255);
    assertThat(PyObject.unsigned(PyTypeCode.UINTEGER2, 65535).unsignedValue()).isEqualTo(65535);
    assertThat(PyObject.unsigned(PyTypeCode.UINTEGER4, 4_000_000_000L).unsignedValue())
        .isEqualTo(4_000_000_000L);
    assertThat(PyObject.unsigned(PyTypeCode.UINTEGER8, -1).unsignedValue()).isEqualTo(-1L);
    assertThat(PyObject.unsigned(PyTypeCode.UINTEGER8, -1).toString())
        .isEqualTo("UInteger8(18446744073709551615)");
    assertThat(
            assertThrows(
                PyDmCodecException.class, () -> PyObject.unsigned(PyTypeCode.UINTEGER1, 256)))
        .hasMessageThat()
        .isEqualTo("PyObject: UInteger1 (0x14) holds 0..255, got 256");
    assertThrows(PyDmCodecException.class, () -> PyObject.unsigned(PyTypeCode.UINTEGER4, -1));
    assertThrows(PyDmCodecException.class, () -> PyObject.unsigned(PyTypeCode.INTEGER4, 1));
    assertThrows(
        IllegalStateException.class, () -> PyObject.of(PyTypeCode.INTEGER4, 1).unsignedValue());
  }

  @Test
  void idsAreAddedAndRemoved() {
    PyObject five = PyObject.of(PyTypeCode.INTEGER, 5);
    assertThat(five.withId(3).id()).isEqualTo(OptionalLong.of(3));
    assertThat(five.withId(3).withoutId()).isEqualTo(five);
    assertThat(five.withId(3).toString()).isEqualTo("Integer(5) id=3");
    assertThat(PyObject.notAssigned().toString()).isEqualTo("not assigned");
  }

  @Test
  void halvesCompareByBits() {
    assertThat(PyHalf.of(0f)).isNotEqualTo(PyHalf.of(-0f));
    assertThat(PyHalf.of(1.5f).toString()).isEqualTo("f16 1.5 (0x3e00)");
    assertThat(PyBFloat16.of(1.5f).toString()).isEqualTo("bf16 1.5 (0x3fc0)");
    assertThat(PyHalf.of(1.0009765625f).floatValue()).isEqualTo(1.0009765625f);
  }

  @Test
  void tuplesPrintAsPython() {
    assertThat(PyTuple.of().toString()).isEqualTo("()");
    assertThat(PyTuple.of(1).toString()).isEqualTo("(1,)");
    assertThat(PyTuple.of(1, null).toString()).isEqualTo("(1, null)");
    assertThat(PyTuple.of(1, 2)).isEqualTo(List.of(1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> PyTuple.of(1).get(1));
    assertThrows(UnsupportedOperationException.class, () -> PyTuple.of(1).set(0, 2));
  }
}
