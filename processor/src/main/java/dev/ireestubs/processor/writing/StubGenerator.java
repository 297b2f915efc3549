package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.processor.model.StubModel;
import java.io.IOException;

/** The last step: writes the stub source for one checked interface. */
public interface StubGenerator {

  /** Where a stub's source goes (the processor's Filer, with the interface as its origin). */
  interface Output {
    void write(ClassName name, String source) throws IOException;
  }

  /** Writes the stub {@code model.stubName()} to {@code out}. */
  void write(StubModel model, Output out) throws IOException;

  /** Writes nothing: for tests that only look at the models. */
  StubGenerator NONE = (model, out) -> {};
}
