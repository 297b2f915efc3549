package dev.ireestubs.pydm;

import dev.ireestubs.invoke.IreeInvocationException;

/**
 * A PyDM function returned a positive {@code exception_result}: an index into the module's global
 * exception table (one slot per logical thread of execution), where the exception object with its
 * type and details lives. The table is module state this runtime cannot read, so the exception
 * carries the index; its {@link #pythonName()} is {@code Exception}. An {@link
 * IreeInvocationException}: the function itself reported an error.
 */
public final class PyRaisedException extends IreeInvocationException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The function that returned the code. */
  private final String function;

  /** The index into the module's exception table. */
  private final int tableIndex;

  /**
   * An exception for a Python exception that {@code function} raised, identified by its index in
   * the module's exception table.
   *
   * @param function the function that returned the code ({@code module.function})
   * @param tableIndex the {@code exception_result}, positive
   * @throws IllegalArgumentException when {@code tableIndex} is not positive
   */
  public PyRaisedException(String function, int tableIndex) {
    super(message(function, tableIndex), (Throwable) null);
    this.function = function;
    this.tableIndex = tableIndex;
  }

  private static String message(String function, int tableIndex) {
    if (tableIndex <= 0) {
      throw new IllegalArgumentException("an exception-table index is positive, got " + tableIndex);
    }
    return function
        + " raised the exception in slot "
        + tableIndex
        + " of its module's exception"
        + " table (PyDM exception_result "
        + tableIndex
        + "); its type and details stay in the"
        + " module";
  }

  /**
   * The index into the module's exception table: the {@code exception_result} itself.
   *
   * @return the positive index that names the exception in the module's table
   */
  public int tableIndex() {
    return tableIndex;
  }

  @Override
  public int code() {
    return tableIndex;
  }

  /** {@code Exception}: the index does not tell the class. */
  @Override
  public String pythonName() {
    return "Exception";
  }

  @Override
  public String function() {
    return function;
  }
}
