package dev.ireestubs.invoke;

/** Which way a value travels, which picks the exception a problem with it becomes. */
enum Side {
  /** Into a function: {@link IreeArgumentException}. */
  ARGUMENT,
  /** Out of a function: {@link IreeResultException}. */
  RESULT;

  IreeException fail(String path, String problem) {
    return this == ARGUMENT
        ? new IreeArgumentException(path, problem)
        : new IreeResultException(path, problem);
  }
}
