package dev.ireestubs.processor;

import java.io.IOException;
import javax.annotation.processing.Filer;

/** Writes the stub source for one checked interface. */
interface StubGenerator {

  /**
   * Writes the stub {@code model.stubName()} with {@code model.iface()} as its one originating
   * element.
   */
  void write(StubModel model, Filer filer) throws IOException;

  /** Writes nothing: for tests that only look at the models. */
  StubGenerator NONE = (model, filer) -> {};
}
