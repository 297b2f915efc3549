package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Imports and parameter scopes as the reader finds them in the real modules of {@code
 * ../shared/iree-reflection}: the two djl-iree-engine modules that load weights from parameter
 * archives name the scopes {@code iree-run-module --parameters=SCOPE=FILE} needs for them (the
 * shared README's table), and no other module needs parameters.
 */
class VmfbImportsTest {

  @Test
  void scaleModuleNeedsTheModelScope() throws IOException {
    VmfbModule m =
        VmfbReader.read(SharedData.require("vmfb/2026-08_djl-iree-engine_scale_bc17.vmfb"));
    assertThat(m.needsParameters()).isTrue();
    assertThat(m.parameterScopes()).containsExactly("model");
    VmfbImport load =
        m.imports().stream().filter(i -> i.name().equals("io_parameters.load")).findFirst().get();
    assertThat(load.callingConvention()).hasValue("0rIrrrIiirrr_r");
    assertThat(load.optional()).isFalse();
    assertThat(load.moduleName()).isEqualTo("io_parameters");
  }

  @Test
  void scale2ModuleNeedsModelAndBiasScopes() throws IOException {
    VmfbModule m =
        VmfbReader.read(SharedData.require("params/2026-08_djl-iree-engine_scale2_bc17.vmfb"));
    assertThat(m.needsParameters()).isTrue();
    assertThat(m.parameterScopes()).containsExactly("bias", "model").inOrder();
  }

  @Test
  void importsOfAModuleWithoutParametersAreHalOnly() throws IOException {
    VmfbModule m =
        VmfbReader.read(SharedData.require("vmfb/2026-08_djl-iree-engine_add_bc17.vmfb"));
    assertThat(m.needsParameters()).isFalse();
    assertThat(m.parameterScopes()).isEmpty();
    assertThat(m.imports()).isNotEmpty();
    for (VmfbImport i : m.imports()) {
      assertWithMessage(i.name()).that(i.moduleName()).isEqualTo("hal");
      assertWithMessage(i.name()).that(i.callingConvention()).isPresent();
    }
  }

  @Test
  void noOtherSharedModuleNeedsParameters() throws IOException {
    Path dir = SharedData.require("vmfb");
    int read = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.sorted()::iterator) {
        Optional<VmfbModule> m;
        try {
          m = Optional.of(VmfbReader.read(f));
        } catch (VmfbFormatException e) {
          continue; // the LFS pointer
        }
        read++;
        boolean scale = f.getFileName().toString().contains("djl-iree-engine_scale");
        assertWithMessage(f.toString()).that(m.get().needsParameters()).isEqualTo(scale);
        assertWithMessage(f.toString())
            .that(m.get().parameterScopes())
            .isEqualTo(scale ? List.of("model") : List.of());
      }
    }
    assertThat(read).isAtLeast(30);
  }

  @Test
  void argumentCountOfCallingConventions() {
    assertThat(ImportReader.argumentCount("0rIrrrIiirrr_r")).isEqualTo(11);
    assertThat(ImportReader.argumentCount("0v_v")).isEqualTo(0);
    assertThat(ImportReader.argumentCount("0iICrD_i")).isEqualTo(-1);
    assertThat(ImportReader.argumentCount("")).isEqualTo(-1);
  }
}
