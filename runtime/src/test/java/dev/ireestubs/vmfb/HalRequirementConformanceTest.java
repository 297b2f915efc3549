package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime generation of the real modules of {@code ../shared/iree-reflection}: its {@code
 * hal07/} modules (IREE 3.12's format, ported from 3.11 originals) need 3.12+, their originals need
 * 3.11 or earlier, and the two differ in exactly the dependency table's {@code hal} version and the
 * dispatch import's third argument; a module that imports nothing from {@code hal} (identity_i64)
 * loads on either. Skipped, with a message, where the folder is absent.
 */
class HalRequirementConformanceTest {

  private static List<Path> modules(String folder) throws IOException {
    Path dir = SharedData.require(folder);
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".vmfb"))
          .filter(f -> !f.getFileName().toString().startsWith("LFS-POINTER"))
          .sorted()
          .toList();
    }
  }

  /** The 3.11 original of a {@code hal07} module: {@code X_hal07.vmfb} came from {@code X_bc17}. */
  private static Path original(Path hal07) {
    String name = hal07.getFileName().toString().replace("_hal07.vmfb", "_bc17.vmfb");
    Path root = hal07.getParent().getParent();
    for (String folder : new String[] {"vmfb", "models", "params"}) {
      if (Files.exists(root.resolve(folder).resolve(name))) {
        return root.resolve(folder).resolve(name);
      }
    }
    return null;
  }

  @Test
  void everyHal07ModuleNeeds312AndDiffersFromItsOriginalOnlyInHal() throws IOException {
    List<Path> ported = modules("hal07");
    int compared = 0;
    for (Path f : ported) {
      VmfbModule m = VmfbReader.read(f);
      HalRequirement r = m.halRequirement();
      if (!r.importsHal()) {
        // identity_i64 computes nothing: no HAL import, no dependency, so it loads on either.
        assertWithMessage(f.toString()).that(r.generation()).isEqualTo(RuntimeGeneration.ANY);
        assertWithMessage(f.toString()).that(r.minimumVersion()).isEmpty();
        continue;
      }
      assertWithMessage(f.toString())
          .that(r.generation())
          .isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
      assertWithMessage(f.toString()).that(r.minimumVersion()).hasValue(7);
      assertWithMessage(f.toString()).that(r.describe()).isEqualTo("IREE 3.12+ (hal 0.7)");
      Path original = original(f);
      if (original == null) {
        continue;
      }
      compared++;
      VmfbModule o = VmfbReader.read(original);
      assertWithMessage(original.toString())
          .that(o.halRequirement().generation())
          .isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
      assertWithMessage(original.toString()).that(o.halRequirement().minimumVersion()).hasValue(6);
      assertWithMessage(f.toString()).that(differingImports(o, m)).isEqualTo(dispatchOnly(m));
    }
    assertThat(ported.size()).isAtLeast(10);
    assertThat(compared).isAtLeast(8);
  }

  /** The imports whose name or calling convention differs between the two modules. */
  private static List<String> differingImports(VmfbModule a, VmfbModule b) {
    List<String> differ = new ArrayList<>();
    List<String> left =
        a.imports().stream().map(i -> i.name() + " " + i.callingConvention().orElse("")).toList();
    for (VmfbImport i : b.imports()) {
      String s = i.name() + " " + i.callingConvention().orElse("");
      if (!left.contains(s)) {
        differ.add(s);
      }
    }
    return differ;
  }

  private static List<String> dispatchOnly(VmfbModule m) {
    return m.imports().stream()
        .filter(
            i ->
                i.name().startsWith(HalRequirement.DISPATCH_IMPORT)
                    || i.name().equals(HalRequirement.LOOKUP_FUNCTION_IMPORT))
        .map(i -> i.name() + " " + i.callingConvention().orElse(""))
        .toList();
  }

  @Test
  void theCorpusOfEarlierReleasesNeedsAtMost311() throws IOException {
    int dispatching = 0;
    for (String folder : new String[] {"vmfb", "models", "params"}) {
      for (Path f : modules(folder)) {
        HalRequirement r = VmfbReader.read(f).halRequirement();
        assertWithMessage(f + ": " + r)
            .that(r.generation())
            .isNotEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
        if (r.generation() == RuntimeGeneration.IREE_3_11_AND_EARLIER) {
          dispatching++;
          assertWithMessage(f.toString())
              .that(r.dispatchCallingConvention().get())
              .startsWith("0rri");
        }
      }
    }
    assertThat(dispatching).isAtLeast(15);
  }
}
