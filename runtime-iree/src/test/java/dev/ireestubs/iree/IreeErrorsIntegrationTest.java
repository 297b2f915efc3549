package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeFunctionNotFoundException;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.iree.IreeIncompatibleModuleException.Reason;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.iree.models.Iree_LooseAdder;
import dev.ireestubs.iree.models.Iree_StaleAdder;
import dev.ireestubs.iree.models.Iree_Subtractor;
import dev.ireestubs.iree.models.LooseAdder;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vmfb.BytecodeVersion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What goes wrong, on a real IREE runtime: every failure is an exception with IREE's status code
 * and text or a precise message of our own, never a crash. Skipped without a runtime library.
 */
class IreeErrorsIntegrationTest {

  private static final int F32 = 0x21000020;

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  @TempDir Path dir;

  private static IreeSession addSession() throws IOException {
    return IREE.runtime().newSession().load(Corpus.require(Adder.FILE));
  }

  @Test
  void wrongShapeIsCaughtByTheStubBeforeIree() throws IOException {
    try (IreeSession session = addSession()) {
      Adder adder = new Iree_Adder(session);
      IreeValueException e =
          assertThrows(
              IreeValueException.class,
              () -> adder.add(FloatArray.of(new float[] {1, 2, 3}, 3), FloatArray.zeros(4)));
      assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
      assertThat(e).hasMessageThat().startsWith("add: a");
    }
  }

  @Test
  void wrongShapeOnTheBackendIsIreesStatus() throws IOException {
    try (IreeSession session = addSession()) {
      BackendFunction add = session.function("module.add");
      VmList arguments = VmList.of(BufferView.allocate(F32, 3), BufferView.allocate(F32, 4));
      IreeInvocationException e =
          assertThrows(IreeInvocationException.class, () -> add.invoke(arguments));
      assertThat(e.statusCode()).isGreaterThan(0);
      assertThat(e).hasMessageThat().startsWith("module.add failed in IREE's runtime (");
      // The session is still usable afterwards.
      FloatArray sum =
          new Iree_Adder(session)
              .add(FloatArray.of(new float[] {1, 2, 3, 4}, 4), FloatArray.zeros(4));
      assertThat(sum.toArray()).isEqualTo(new float[] {1, 2, 3, 4});
    }
  }

  @Test
  void wrongElementTypeOnTheBackendIsIreesStatus() throws IOException {
    try (IreeSession session = addSession()) {
      VmList arguments =
          VmList.of(BufferView.allocate(0x10000020, 4), BufferView.allocate(0x10000020, 4));
      IreeInvocationException e =
          assertThrows(
              IreeInvocationException.class,
              () -> session.function("module.add").invoke(arguments));
      assertThat(e.statusCode()).isGreaterThan(0);
    }
  }

  @Test
  void argumentsThatDoNotFitTheCallingConventionNeverReachIree() throws IOException {
    try (IreeSession session = addSession()) {
      BackendFunction add = session.function("module.add");
      IreeValueException count =
          assertThrows(
              IreeValueException.class, () -> add.invoke(VmList.of(BufferView.allocate(F32, 4))));
      assertThat(count.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
      assertThat(count)
          .hasMessageThat()
          .contains("expected 2 arguments (calling convention 0rr_r)");
      IreeValueException value =
          assertThrows(
              IreeValueException.class,
              () -> add.invoke(VmList.of(VmValue.f32(1), BufferView.allocate(F32, 4))));
      assertThat(value.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
      assertThat(value.path()).isEqualTo("module.add: arg0");
      IreeValueException foreign =
          assertThrows(
              IreeValueException.class,
              () ->
                  add.invoke(
                      VmList.of(OpaqueRef.of("hal.fence", null), BufferView.allocate(F32, 4))));
      assertThat(foreign.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
      assertThat(foreign).hasMessageThat().contains("made outside this IREE runtime");
      VmList cyclic = VmList.variant(1);
      cyclic.push(cyclic);
      IreeValueException cycle =
          assertThrows(
              IreeValueException.class,
              () -> add.invoke(VmList.of(cyclic, BufferView.allocate(F32, 4))));
      assertThat(cycle.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
      assertThat(cycle).hasMessageThat().contains("contains itself");
    }
  }

  /**
   * An argument IREE cannot take ends the call all the same: the copy of an earlier argument's heap
   * bytes (native memory of the call, which no collector frees) is freed, even when the session is
   * closed right after, before another call would have ended it.
   */
  @Test
  void aRefusedArgumentStillFreesTheCopiesOfTheOthers() throws IOException {
    assumeTrue(NativeMemory.mallocInUse().isPresent(), "needs glibc's mallinfo2");
    int bytes = 8 << 20; // 8 MiB of heap floats, copied for IREE before arg1 is refused
    long[] shape = {4, bytes / 16};
    System.gc();
    long before = NativeMemory.mallocInUse().getAsLong();
    for (int i = 0; i < 16; i++) {
      try (IreeSession session = addSession()) {
        BufferView heap =
            BufferView.wrap(F32, shape, ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder()));
        IreeValueException refused =
            assertThrows(
                IreeValueException.class,
                () ->
                    session
                        .function("module.add")
                        .invoke(VmList.of(heap, OpaqueRef.of("hal.fence", null))));
        assertThat(refused.path()).isEqualTo("module.add: arg1");
      }
    }
    System.gc();
    long grown = NativeMemory.mallocInUse().getAsLong() - before;
    // 16 x 8 MiB = 128 MiB when the copies stay; the JVM's own swings are a few MiB.
    assertThat(grown).isLessThan(48L << 20);
  }

  @Test
  void aMissingFunction() throws IOException {
    try (IreeSession session = addSession()) {
      assertThat(session.lookup("module.sub")).isEmpty();
      assertThat(session.lookup("sub")).isEmpty();
      // A function's name alone finds it when one loaded module exports it.
      assertThat(session.lookup("add")).hasValue(session.function("module.add"));
      assertThat(session.lookup("other.add")).isEmpty();
      IreeFunctionNotFoundException e =
          assertThrows(IreeFunctionNotFoundException.class, () -> session.function("module.sub"));
      assertThat(e).hasMessageThat().contains("module.add");
      IreeFunctionNotFoundException stub =
          assertThrows(IreeFunctionNotFoundException.class, () -> new Iree_Subtractor(session));
      assertThat(stub.qualifiedName()).isEqualTo("module.sub");
    }
  }

  @Test
  void aStubCompiledForAnotherVersionOfTheModelFailsAtBindTime() throws IOException {
    try (IreeSession session = addSession()) {
      IreeSignatureMismatchException e =
          assertThrows(IreeSignatureMismatchException.class, () -> new Iree_StaleAdder(session));
      assertThat(e).hasMessageThat().contains("module.add");
    }
  }

  @Test
  void aModuleForAnotherArchitecture() throws IOException {
    Path arm = Corpus.require("vmfb/2026-08_djl-iree-engine_add_aarch64_bc17.vmfb");
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeIncompatibleModuleException e =
          assertThrows(IreeIncompatibleModuleException.class, () -> session.load(arm));
      assertThat(e.reason()).isEqualTo(Reason.TARGET);
      assertThat(e.statusCode()).isEqualTo(IreeStatusCode.INCOMPATIBLE.code());
      assertThat(e.bytecodeVersion()).hasValue(new BytecodeVersion(17, 0));
      assertThat(e).hasMessageThat().contains(arm.toString());
      assertThat(e).hasMessageThat().contains(ModuleErrors.RELEASE_RULE);
    }
  }

  @Test
  void aModuleOfAnotherRelease() throws IOException {
    Path old = Corpus.require("vmfb/2024-12_iree-tutorial_matmul_3in_bc15.vmfb");
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeIncompatibleModuleException e =
          assertThrows(IreeIncompatibleModuleException.class, () -> session.load(old));
      assertThat(e.reason()).isEqualTo(Reason.BYTECODE_VERSION);
      assertThat(e.statusCode()).isEqualTo(IreeStatusCode.INVALID_ARGUMENT.code());
      assertThat(e.bytecodeVersion()).hasValue(new BytecodeVersion(15, 0));
      assertThat(e).hasMessageThat().contains("bytecode version mismatch");
      assertThat(e).hasMessageThat().contains("The module has bytecode version 15.0");
      assertThat(e).hasMessageThat().contains(ModuleErrors.RELEASE_RULE);
    }
  }

  @Test
  void modulesOfOlderReleasesNameTheirRelease() throws IOException {
    // IREE itself says only "FlatBuffer verification failed" for these; iree-stubs' reader knows
    // their bytecode version or layout.
    Path bc13 = Corpus.require("vmfb/2023-02_iree-rs_simple_mul_module_bc13_noreflection.vmfb");
    Path of2021 = Corpus.require("vmfb/2021-06_iree_simple_embedding_rv64_noreflection.vmfb");
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeIncompatibleModuleException e =
          assertThrows(IreeIncompatibleModuleException.class, () -> session.load(bc13));
      assertThat(e.reason()).isEqualTo(Reason.BYTECODE_VERSION);
      assertThat(e.bytecodeVersion()).hasValue(new BytecodeVersion(13, 0));
      assertThat(e).hasMessageThat().contains("FlatBuffer verification failed");
      assertThat(e)
          .hasMessageThat()
          .contains("The module has bytecode version 13.0 (written by an IREE release before");
      assertThat(e).hasMessageThat().contains(ModuleErrors.RELEASE_RULE);

      IreeIncompatibleModuleException old =
          assertThrows(IreeIncompatibleModuleException.class, () -> session.load(of2021));
      assertThat(old.reason()).isEqualTo(Reason.BYTECODE_VERSION);
      assertThat(old.bytecodeVersion()).isEmpty();
      assertThat(old).hasMessageThat().contains("identifier mismatch");
      assertThat(old).hasMessageThat().contains("has no bytecode version: its layout (2020-09+");
      assertThat(old).hasMessageThat().contains("before 2022-05");
      assertThat(session.functionNames()).isEmpty();
    }
  }

  @Test
  void aSecondModuleOfTheSameNameIsRefused() throws IOException {
    Path add = Corpus.require(Adder.FILE);
    Path matmul = Corpus.require("vmfb/2026-03_elodin_matmul_x86_64_bc17.vmfb"); // "module" too
    try (IreeSession session = IREE.runtime().newSession().load(add)) {
      IllegalArgumentException fromFile =
          assertThrows(IllegalArgumentException.class, () -> session.load(matmul));
      assertThat(fromFile)
          .hasMessageThat()
          .startsWith(
              matmul
                  + ": a module named 'module' is already loaded in this session (from "
                  + add
                  + ")");
      assertThat(fromFile).hasMessageThat().contains("another session");
      IllegalArgumentException fromMemory =
          assertThrows(
              IllegalArgumentException.class,
              () -> session.load(Files.readAllBytes(add), "add again"));
      assertThat(fromMemory).hasMessageThat().startsWith("add again: a module named 'module'");
      // Nothing was shadowed: the first module is the only one, and still answers.
      assertThat(session.functionNames()).containsExactly("module.__init", "module.add");
      FloatArray sum =
          new Iree_Adder(session)
              .add(FloatArray.of(new float[] {1, 2, 3, 4}, 4), FloatArray.zeros(4));
      assertThat(sum.toArray()).isEqualTo(new float[] {1, 2, 3, 4});
      // A module of another name still loads beside it.
      session.load(Corpus.require("vmfb/2026-06_eerie_mul_vmvx_bc17.vmfb"));
      assertThat(session.functionNames()).contains("arithmetic.simple_mul");
    }
  }

  @Test
  void aModuleThatNeedsParametersSaysSo() throws IOException {
    Path scale = Corpus.require("vmfb/2026-08_djl-iree-engine_scale_bc17.vmfb");
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeInvocationException e =
          assertThrows(IreeInvocationException.class, () -> session.load(scale));
      assertThat(e).isNotInstanceOf(IreeIncompatibleModuleException.class);
      assertThat(e.statusCode()).isEqualTo(IreeStatusCode.NOT_FOUND.code());
      assertThat(e).hasMessageThat().contains("io_parameters");
      assertThat(e).hasMessageThat().contains("The module imports IREE's io_parameters module");
      assertThat(e).hasMessageThat().contains("external parameter archives (.irpa");
    }
  }

  @Test
  void aStubLeavingSizesOpenIsCheckedAgainstTheModulesStaticSizes() throws IOException {
    try (IreeSession session = addSession()) {
      LooseAdder loose = new Iree_LooseAdder(session);
      IreeValueException e =
          assertThrows(
              IreeValueException.class,
              () -> loose.add(FloatArray.of(new float[] {1, 2, 3}, 3), FloatArray.zeros(3)));
      assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
      assertThat(e.path()).isEqualTo("module.add: arg0");
      assertThat(e)
          .hasMessageThat()
          .contains("the module declares tensor<4xf32> but the argument has shape [3]");
      assertThat(e).hasMessageThat().contains("the stub declares tensor<?xf32>");
      // iree-run-module ... --function=add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40
      //   ->  4xf32=11 22 33 44
      FloatArray sum =
          loose.add(
              FloatArray.of(new float[] {1, 2, 3, 4}, 4),
              FloatArray.of(new float[] {10, 20, 30, 40}, 4));
      assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
    }
  }

  @Test
  void aFileThatIsNotAModule() throws IOException {
    Path text = Files.writeString(dir.resolve("model.vmfb"), "not a module\n");
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeInvocationException e =
          assertThrows(IreeInvocationException.class, () -> session.load(text));
      assertThat(e.statusCode()).isGreaterThan(0);
      assertThat(e).hasMessageThat().contains("iree-stubs' module reader could not read it either");
      assertThrows(IreeInvocationException.class, () -> session.load(new byte[] {1, 2, 3}, "junk"));
      assertThrows(NoSuchFileException.class, () -> session.load(dir.resolve("absent.vmfb")));
      assertThat(session.functionNames()).isEmpty();
    }
  }
}
