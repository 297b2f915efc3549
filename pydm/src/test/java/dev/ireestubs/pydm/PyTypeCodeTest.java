package dev.ireestubs.pydm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.pydm.PyTypeCode.Representation;
import dev.ireestubs.vm.VmValueType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class PyTypeCodeTest {

  /**
   * The table as IREE states it: BuiltinTypeCode in iree-dialects/Dialect/IREEPyDM/IR/Dialect.h
   * (the era of the LowerToIREE.md notes), plus code 0 "not assigned" from the notes.
   */
  private static final Map<String, Integer> EXPECTED = new LinkedHashMap<>();

  static {
    EXPECTED.put("not assigned", 0x0);
    EXPECTED.put("None", 0x1);
    EXPECTED.put("Tuple", 0x2);
    EXPECTED.put("List", 0x3);
    EXPECTED.put("Str", 0x4);
    EXPECTED.put("Bytes", 0x5);
    EXPECTED.put("ExceptionResult", 0x6);
    EXPECTED.put("Type", 0x7);
    EXPECTED.put("Bool", 0x8);
    EXPECTED.put("Integer", 0x9);
    EXPECTED.put("Real", 0xa);
    EXPECTED.put("Complex", 0xb);
    EXPECTED.put("Integer1", 0x10);
    EXPECTED.put("Integer2", 0x11);
    EXPECTED.put("Integer4", 0x12);
    EXPECTED.put("Integer8", 0x13);
    EXPECTED.put("UInteger1", 0x14);
    EXPECTED.put("UInteger2", 0x15);
    EXPECTED.put("UInteger4", 0x16);
    EXPECTED.put("UInteger8", 0x17);
    EXPECTED.put("Float2", 0x18);
    EXPECTED.put("Float4", 0x19);
    EXPECTED.put("Float8", 0x1a);
    EXPECTED.put("BFloat2", 0x1b);
    EXPECTED.put("Complex4", 0x1c);
    EXPECTED.put("Complex8", 0x1d);
    EXPECTED.put("Object", 0x100);
  }

  @Test
  void theTableHasExactlyTheDialectsCodes() {
    Map<String, Integer> actual = new LinkedHashMap<>();
    for (PyTypeCode c : PyTypeCode.values()) {
      actual.put(c.pyDmName(), c.code());
    }
    assertThat(actual).containsExactlyEntriesIn(EXPECTED).inOrder();
  }

  @Test
  void notAssignedIsDistinctFromNone() {
    assertThat(PyTypeCode.NOT_ASSIGNED.code()).isEqualTo(0);
    assertThat(PyTypeCode.NONE.code()).isEqualTo(1);
    assertThat(PyTypeCode.of(0)).isEqualTo(PyTypeCode.NOT_ASSIGNED);
    assertThat(PyTypeCode.of(1)).isEqualTo(PyTypeCode.NONE);
  }

  @ParameterizedTest
  @EnumSource(PyTypeCode.class)
  void everyCodeIsFoundByItsNumber(PyTypeCode code) {
    assertThat(PyTypeCode.fromCode(code.code())).isEqualTo(Optional.of(code));
    assertThat(PyTypeCode.of(code.code())).isSameInstanceAs(code);
  }

  @Test
  void theTodoCodesAreExactlyThoseTheNotesLeaveTodo() {
    Set<PyTypeCode> todo = EnumSet.noneOf(PyTypeCode.class);
    Arrays.stream(PyTypeCode.values()).filter(c -> !c.isSupported()).forEach(todo::add);
    assertThat(todo)
        .containsExactly(
            PyTypeCode.STR,
            PyTypeCode.BYTES,
            PyTypeCode.EXCEPTION_RESULT,
            PyTypeCode.COMPLEX,
            PyTypeCode.COMPLEX4,
            PyTypeCode.COMPLEX8);
  }

  @Test
  void sizedNumbersHaveTheValueTypeOfTheNotes() {
    assertThat(PyTypeCode.INTEGER1.valueType()).hasValue(VmValueType.I8);
    assertThat(PyTypeCode.UINTEGER1.valueType()).hasValue(VmValueType.I8);
    assertThat(PyTypeCode.INTEGER2.valueType()).hasValue(VmValueType.I16);
    assertThat(PyTypeCode.UINTEGER2.valueType()).hasValue(VmValueType.I16);
    assertThat(PyTypeCode.INTEGER4.valueType()).hasValue(VmValueType.I32);
    assertThat(PyTypeCode.UINTEGER4.valueType()).hasValue(VmValueType.I32);
    assertThat(PyTypeCode.INTEGER8.valueType()).hasValue(VmValueType.I64);
    assertThat(PyTypeCode.UINTEGER8.valueType()).hasValue(VmValueType.I64);
    // Float2 and BFloat2 are the bit patterns in an i16.
    assertThat(PyTypeCode.FLOAT2.valueType()).hasValue(VmValueType.I16);
    assertThat(PyTypeCode.FLOAT2.representation()).isEqualTo(Representation.F16_BITS);
    assertThat(PyTypeCode.BFLOAT2.valueType()).hasValue(VmValueType.I16);
    assertThat(PyTypeCode.BFLOAT2.representation()).isEqualTo(Representation.BF16_BITS);
    assertThat(PyTypeCode.FLOAT4.valueType()).hasValue(VmValueType.F32);
    assertThat(PyTypeCode.FLOAT8.valueType()).hasValue(VmValueType.F64);
  }

  @Test
  void implementationDefinedAndStructuredCodesHaveNoSingleValueType() {
    for (PyTypeCode c :
        new PyTypeCode[] {
          PyTypeCode.NOT_ASSIGNED,
          PyTypeCode.NONE,
          PyTypeCode.TUPLE,
          PyTypeCode.LIST,
          PyTypeCode.TYPE,
          PyTypeCode.BOOL,
          PyTypeCode.INTEGER,
          PyTypeCode.REAL,
          PyTypeCode.OBJECT
        }) {
      assertThat(c.valueType()).isEmpty();
    }
    assertThat(PyTypeCode.TUPLE.representation()).isEqualTo(Representation.OBJECT_SEQUENCE);
    assertThat(PyTypeCode.LIST.representation()).isEqualTo(Representation.OBJECT_SEQUENCE);
    assertThat(PyTypeCode.TYPE.representation()).isEqualTo(Representation.OBJECT_RECORD);
    assertThat(PyTypeCode.OBJECT.representation()).isEqualTo(Representation.OBJECT_RECORD);
    assertThat(PyTypeCode.NONE.representation()).isEqualTo(Representation.NO_DATA);
    assertThat(PyTypeCode.NOT_ASSIGNED.representation()).isEqualTo(Representation.NO_DATA);
  }

  @Test
  void onlyTheUIntegersAreUnsigned() {
    Set<PyTypeCode> unsigned = EnumSet.noneOf(PyTypeCode.class);
    Arrays.stream(PyTypeCode.values()).filter(PyTypeCode::isUnsigned).forEach(unsigned::add);
    assertThat(unsigned)
        .containsExactly(
            PyTypeCode.UINTEGER1, PyTypeCode.UINTEGER2, PyTypeCode.UINTEGER4, PyTypeCode.UINTEGER8);
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 0xc, 0xf, 0x1e, 0x20, 0x3f, 0x80, 0xff})
  void codesOutsideTheTableAreUnknown(int code) {
    assertThat(PyTypeCode.fromCode(code)).isEmpty();
    PyDmCodecException e = assertThrows(PyDmCodecException.class, () -> PyTypeCode.of(code));
    assertThat(e).hasMessageThat().contains("is not a PyDM built-in type code");
  }

  @Test
  void laterBitPackedNumericCodesAreNamedAsSuch() {
    // 0x4c is NumericSigned8Bit in the later PyDM/IR/Constants.h numbering.
    PyDmCodecException e = assertThrows(PyDmCodecException.class, () -> PyTypeCode.of(0x4c));
    assertThat(e).hasMessageThat().contains("type code 0x4c");
    assertThat(e).hasMessageThat().contains("0x40..0x7f");
  }

  @Test
  void customCodesAreUnknown() {
    PyDmCodecException e = assertThrows(PyDmCodecException.class, () -> PyTypeCode.of(0x101));
    assertThat(e).hasMessageThat().contains("type code 0x101 is a custom (user-defined) type");
  }

  @Test
  void describeGivesNameAndHex() {
    assertThat(PyTypeCode.OBJECT.describe()).isEqualTo("Object (0x100)");
    assertThat(PyTypeCode.BFLOAT2.describe()).isEqualTo("BFloat2 (0x1b)");
  }
}
