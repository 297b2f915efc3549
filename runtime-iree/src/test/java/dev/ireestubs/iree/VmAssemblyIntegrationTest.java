package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A module written in IREE's VM assembly ({@code vm_level.vmasm}, a test resource) and assembled at
 * test time by IREE 3.12's {@code iree-as-module} (installed beside a 3.12-line library by the
 * build script), so that the VM layer is tested without a compiler and without a committed {@code
 * .vmfb}: values, i64 register pairs, lists made and read by the module, a {@code !vm.buffer} the
 * module allocates and fills (it comes back to Java as an {@link OpaqueRef} named {@code
 * vm.buffer}, whose bytes Java reads by handing it back to the module), and a failing function. It
 * imports nothing from {@code hal}, so it loads on a runtime of either generation. A second module,
 * {@code vm_async.vmasm}, has an export of the coarse-fences model ({@code twice$async}) that
 * awaits its wait fence and signals its signal fence through the {@code hal} imports {@code
 * hal.fence.await} and {@code hal.fence.signal}; the assembler records no module dependency (so no
 * {@code hal} version), and the imports resolve by name and calling convention, which are the same
 * on both generations, so it too runs on either. Skipped, with a message, when no {@code
 * iree-as-module} is installed.
 *
 * <p>A third, {@code vm_yield.vmasm}, has functions that run {@code vm.yield}, and {@code
 * vm_yield_caller.vmasm} calls them through imports. IREE's {@code iree_vm_invoke} (what {@code
 * iree_runtime_session_call} runs), in 3.11.0 and 3.12, never resumes a plain yield: after {@code
 * iree_vm_begin_invoke} returns {@code DEFERRED} with no wait frame on the stack, {@code
 * iree_vm_resume_invoke} sees the saved status still {@code DEFERRED} and returns it without
 * resuming, so the call spins forever ({@code iree-run-module} on such a function hangs the same
 * way). runtime-iree refuses those calls before they reach IREE; the test shows the refusal, and
 * that the functions beside them still run. A function compiled by IREE waits through wait frames
 * ({@code hal.fence.await}, as {@code twice$async} does), which that loop does resume.
 */
class VmAssemblyIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  private static final String TOOL = "iree-as-module";

  /** The assembler beside the loaded library, else beside any installed release's. */
  private static Optional<Path> assembler(IreeLibrary library) throws IOException {
    Path platformDir = library.path().getParent().getParent();
    Path beside = platformDir.resolve("bin").resolve(TOOL);
    if (Files.isExecutable(beside)) {
      return Optional.of(beside);
    }
    Path root = platformDir.getParent().getParent();
    if (root == null || !Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> releases = Files.newDirectoryStream(root)) {
      for (Path release : releases) {
        Path tool = release.resolve(platformDir.getFileName()).resolve("bin").resolve(TOOL);
        if (Files.isExecutable(tool)) {
          return Optional.of(tool);
        }
      }
    }
    return Optional.empty();
  }

  private static Path assemble(Path dir) throws Exception {
    return assemble(dir, "vm_level");
  }

  /** Assembles the test resource {@code name.vmasm} into {@code dir/name.vmfb}. */
  private static Path assemble(Path dir, String name) throws Exception {
    Optional<Path> tool = assembler(IREE.runtime().library());
    String message =
        "SKIPPED: no "
            + TOOL
            + " installed (IREE 3.12's build script run builds it): the VM-assembly module is"
            + " not assembled";
    if (tool.isEmpty()) {
      System.out.println(message);
    }
    assumeTrue(tool.isPresent(), message);
    Path source = dir.resolve(name + ".vmasm");
    try (InputStream in = VmAssemblyIntegrationTest.class.getResourceAsStream(name + ".vmasm")) {
      Files.copy(in, source);
    }
    Path out = dir.resolve(name + ".vmfb");
    Process p =
        new ProcessBuilder(tool.get().toString(), "--output=" + out, source.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(0);
    assertThat(output).isEmpty();
    return out;
  }

  private static int i32(VmList results) {
    return results.getValue(0).asI32();
  }

  @Test
  void theAssembledModuleRunsItsValueAndListFunctions(@TempDir Path dir) throws Exception {
    Path vmfb = assemble(dir);
    try (IreeSession session = IREE.runtime().newSession().load(vmfb)) {
      assertThat(session.functionNames())
          .containsAtLeast(
              "vm_level.add_i32", "vm_level.mul_i64", "vm_level.pair", "vm_level.sum_pair");
      try (VmList r =
          session.function("vm_level.add_i32").invoke(VmList.of(VmValue.i32(2), VmValue.i32(40)))) {
        assertThat(i32(r)).isEqualTo(42);
      }
      try (VmList r =
          session
              .function("vm_level.mul_i64")
              .invoke(VmList.of(VmValue.i64(6_000_000_000L), VmValue.i64(7)))) {
        assertThat(r.getValue(0).asI64()).isEqualTo(42_000_000_000L);
      }
      BackendFunction pair = session.function("vm_level.pair");
      try (VmList r = pair.invoke(VmList.of(VmValue.i32(3), VmValue.i32(4)))) {
        VmList made = r.getList(0); // a list the module allocated
        assertThat(made.size()).isEqualTo(2);
        assertThat(made.getValue(0).asI32()).isEqualTo(3);
        assertThat(made.getValue(1).asI32()).isEqualTo(4);
        // ... and handed back to the module, which reads it
        try (VmList sum = session.function("vm_level.sum_pair").invoke(VmList.of(made))) {
          assertThat(i32(sum)).isEqualTo(7);
        }
      }
    }
  }

  @Test
  void aFailingFunctionGivesItsMessage(@TempDir Path dir) throws Exception {
    Path vmfb = assemble(dir);
    try (IreeSession session = IREE.runtime().newSession().load(vmfb)) {
      BackendFunction f = session.function("vm_level.fail_if_negative");
      try (VmList r = f.invoke(VmList.of(VmValue.i32(5)))) {
        assertThat(i32(r)).isEqualTo(5);
      }
      IreeInvocationException e =
          assertThrows(IreeInvocationException.class, () -> f.invoke(VmList.of(VmValue.i32(-1))));
      assertThat(e).hasMessageThat().contains("negative input");
    }
  }

  @Test
  void aBufferTheModuleMadeComesBackOpaqueAndGoesBackIn(@TempDir Path dir) throws Exception {
    Path vmfb = assemble(dir);
    try (IreeSession session = IREE.runtime().newSession().load(vmfb)) {
      BackendFunction at = session.function("vm_level.buffer_at");
      BackendFunction length = session.function("vm_level.buffer_length");
      VmList later; // arguments naming the buffer, passed after the results are closed
      try (VmList r = session.function("vm_level.iota_buffer").invoke(VmList.of(VmValue.i32(4)))) {
        // element k of the module's buffer is 10 * k; Java holds it as an opaque ref
        OpaqueRef buffer = r.getRef(0, OpaqueRef.class);
        later = VmList.of(buffer, VmValue.i32(0));
        assertThat(buffer.refTypeName()).isEqualTo("vm.buffer");
        try (VmList n = length.invoke(VmList.of(buffer))) {
          assertThat(n.getValue(0).asI64()).isEqualTo(16L); // bytes
        }
        for (int k = 0; k < 4; k++) {
          try (VmList v = at.invoke(VmList.of(buffer, VmValue.i32(k)))) {
            assertThat(i32(v)).isEqualTo(10 * k);
          }
        }
        // reading past its end is the module's bounds check failing the call
        IreeInvocationException past =
            assertThrows(
                IreeInvocationException.class, () -> at.invoke(VmList.of(buffer, VmValue.i32(4))));
        assertThat(past).hasMessageThat().contains("out-of-bounds");
      }
      // closing the results released the buffer: it can no longer be passed
      IreeValueException closed = assertThrows(IreeValueException.class, () -> at.invoke(later));
      assertThat(closed).hasMessageThat().contains("vm.buffer ref was closed");
      later.close();
    }
  }

  @Test
  void anAsyncExportAwaitsItsWaitFenceAndSignalsItsSignalFence(@TempDir Path dir) throws Exception {
    Path vmfb = assemble(dir, "vm_async");
    try (IreeSession session = IREE.runtime().newSession().load(vmfb)) {
      BackendFunction twice = session.function("vm_async.twice$async");
      // synchronously: the runtime passes a null wait fence and a new signal fence, waits for it
      try (VmList r = twice.invoke(VmList.of(VmValue.i32(21)))) {
        assertThat(i32(r)).isEqualTo(42);
      }
      AsyncCall first = twice.invokeAsync(VmList.of(VmValue.i32(5)), null);
      // the second call's module gets the first call's (native) signal fence to await
      AsyncCall second = twice.invokeAsync(VmList.of(VmValue.i32(7)), first.signal());
      try (VmList r1 = first.results().get(60, TimeUnit.SECONDS); // a hang guard only
          VmList r2 = second.results().get(60, TimeUnit.SECONDS)) {
        assertThat(i32(r1)).isEqualTo(10);
        assertThat(i32(r2)).isEqualTo(14);
      }
      assertThat(first.signal().isReached()).isTrue();
      assertThat(second.signal().isReached()).isTrue();
      // a wait fence Java reaches later: the call does not complete before it
      CompletableFuture<Void> gate = new CompletableFuture<>();
      AsyncCall gated = twice.invokeAsync(VmList.of(VmValue.i32(1)), Fence.of(gate));
      assertThat(gated.results().isDone()).isFalse();
      gate.complete(null);
      try (VmList r = gated.results().get(60, TimeUnit.SECONDS)) {
        assertThat(i32(r)).isEqualTo(2);
      }
    }
  }

  @Test
  // A hang guard only (in a thread of its own, as a spinning native call ignores interrupts): the
  // refused calls return at once.
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aFunctionThatYieldsIsRefusedInsteadOfSpinningForever(@TempDir Path dir) throws Exception {
    Path vmfb = assemble(dir, "vm_yield");
    Path caller = assemble(dir, "vm_yield_caller");
    assertThat(VmfbReader.read(vmfb).export("calls_yielder").orElseThrow().yieldReach().yieldAt())
        .hasValue("function 0 runs vm.yield at offset 0x00000001, reached through calls 1 -> 0");
    try (IreeSession session = IREE.runtime().newSession().load(vmfb).load(caller)) {
      for (String name :
          List.of(
              "vm_yield.yield_once", "vm_yield.calls_yielder", "vm_yield_caller.through_import")) {
        BackendFunction f = session.function(name);
        UnsupportedOperationException e =
            assertThrows(
                UnsupportedOperationException.class, () -> f.invoke(VmList.of(VmValue.i32(1))));
        assertThat(e)
            .hasMessageThat()
            .startsWith(name + " (calling convention 0i_i) may run vm.yield (");
        assertThat(e).hasMessageThat().contains("would spin forever on the calling thread");
        assertThat(e).hasMessageThat().contains("write the function without vm.yield");
      }
      assertThat(
              assertThrows(
                  UnsupportedOperationException.class,
                  () ->
                      session
                          .function("vm_yield_caller.through_import")
                          .invoke(VmList.of(VmValue.i32(1)))))
          .hasMessageThat()
          .contains(
              "(it calls the import vm_yield.yield_once: in module vm_yield, function 0 runs"
                  + " vm.yield at offset 0x00000001)");
      // the functions that do not yield run, in the same session, after the refusals
      try (VmList r = session.function("vm_yield.plain").invoke(VmList.of(VmValue.i32(41)))) {
        assertThat(i32(r)).isEqualTo(42);
      }
      try (VmList r =
          session
              .function("vm_yield_caller.plain_through_import")
              .invoke(VmList.of(VmValue.i32(1)))) {
        assertThat(i32(r)).isEqualTo(2);
      }
      assertThat(session.statistics().getFailures()).isEqualTo(4);
    }
  }
}
