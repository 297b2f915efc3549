package dev.ireestubs.pydm;

/**
 * A value of a PyDM type whose object-record data the lowering notes leave TODO: {@code Str},
 * {@code Bytes}, {@code ExceptionResult}, {@code Complex}, {@code Complex4} and {@code Complex8}.
 * Thrown both ways: when a record with such a type code is decoded, and when a Java value of such a
 * type ({@code String}, {@code byte[]}, a {@link PyObject} with such a code) is encoded. The
 * message names the code.
 */
public class PyDmUnsupportedTypeException extends PyDmCodecException {
  private static final long serialVersionUID = 1L;

  /** The type code whose data iree-stubs cannot represent. */
  private final PyTypeCode typeCode;

  /**
   * An exception for a value at {@code path} whose type the PyDM codec does not support.
   *
   * @param path where the value is
   * @param typeCode the type code with no representation
   * @param given what was given, e.g. {@code a java.lang.String} or {@code a record}
   */
  public PyDmUnsupportedTypeException(String path, PyTypeCode typeCode, String given) {
    super(path, problem(typeCode, given));
    this.typeCode = typeCode;
  }

  private static String problem(PyTypeCode typeCode, String given) {
    return given
        + " of type "
        + typeCode.describe()
        + " has no object-record form yet: the PyDM"
        + " lowering leaves the data of "
        + typeCode.pyDmName()
        + " TODO, so iree-stubs neither"
        + " writes nor reads it";
  }

  /**
   * The type code without a representation.
   *
   * @return the type code the record carried
   */
  public PyTypeCode typeCode() {
    return typeCode;
  }
}
