package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.function.Executable;

/** Assertions that a call fails with an {@link IreeValueException} of one side. */
public final class ValueFailures {

  private ValueFailures() {}

  /**
   * The argument failure {@code call} throws.
   *
   * @param call what must throw
   * @return the exception, whose side is {@code ARGUMENT}
   */
  public static IreeValueException argument(Executable call) {
    IreeValueException e = assertThrows(IreeValueException.class, call);
    assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    return e;
  }

  /**
   * The result failure {@code call} throws.
   *
   * @param call what must throw
   * @return the exception, whose side is {@code RESULT}
   */
  public static IreeValueException result(Executable call) {
    IreeValueException e = assertThrows(IreeValueException.class, call);
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    return e;
  }
}
