package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every export of every real module gets a signature from its best reflection, and that signature
 * agrees with the export's calling convention: what the processor and the bind-time check rely on.
 */
class VmfbSignatureConformanceTest {

  @Test
  void everyRealExportResolvesToASignatureThatAgreesWithItsCallingConvention() throws Exception {
    Path dir = SharedData.require("vmfb");
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files =
          s.filter(p -> p.getFileName().toString().endsWith(".vmfb"))
              .filter(p -> !p.getFileName().toString().startsWith("LFS-POINTER"))
              .sorted()
              .collect(Collectors.toList());
    }
    Map<String, Integer> bySource = new TreeMap<>();
    int exports = 0;
    long warnings = 0;
    long bytecodeWarnings = 0;
    for (Path file : files) {
      VmfbModule module = VmfbReader.read(file);
      for (VmfbExport export : module.exports()) {
        if (export.callingConvention().isEmpty() && export.reflection().isEmpty()) {
          bySource.merge("nothing (pre-2020 module)", 1, Integer::sum);
          continue;
        }
        Reflection.Resolved r = export.signature();
        exports++;
        warnings += r.warnings().stream().filter(w -> w.contains("iree.abi.declaration")).count();
        long unread = r.warnings().stream().filter(w -> w.contains("bytecode")).count();
        bytecodeWarnings += unread;
        // Only the bodies of modules before bytecode versions (2022-05) are not read.
        assertWithMessage("%s %s: %s", file.getFileName(), export.name(), r.warnings())
            .that(unread == 0 || module.bytecodeVersion().isEmpty())
            .isTrue();
        bySource.merge(r.source(), 1, Integer::sum);
        if (export.callingConvention().isPresent()) {
          assertWithMessage("%s %s", file.getFileName(), export.name())
              .that(
                  CallingConvention.parse(export.callingConvention().get())
                      .mismatches(r.signature()))
              .isEmpty();
        }
      }
    }
    System.out.println(
        "vmfb signatures: "
            + exports
            + " exports of "
            + files.size()
            + " modules resolved, by source "
            + bySource
            + ", "
            + warnings
            + " unparsable declarations, "
            + bytecodeWarnings
            + " bodies not read for types; every one agrees with its calling convention");
    assertThat(exports).isGreaterThan(60);
    assertThat(warnings).isEqualTo(0);
  }
}
