package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.iree.models.Abs0d;
import dev.ireestubs.iree.models.AddF64;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.IdentityI64;
import dev.ireestubs.iree.models.Matmul;
import dev.ireestubs.iree.models.MultiOutput;
import dev.ireestubs.iree.models.Scale;
import dev.ireestubs.iree.models.Scale2;
import dev.ireestubs.iree.models.SimpleMul;
import dev.ireestubs.iree.models.Speech;
import dev.ireestubs.iree.models.VmvxMul;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The stubs the integration tests call were generated from inline declarations: each must be the
 * declaration its {@code .vmfb} carries, so the stub's compile-time checks are the module's. (The
 * processor cannot read a {@code .vmfb} itself yet.) Needs no runtime library.
 */
class StubDeclarationsTest {

  private static void assertDeclaration(
      String file, String module, String function, String declaration) throws IOException {
    VmfbModule m = VmfbReader.read(SharedData.require(file));
    assertThat(m.name()).isEqualTo(module);
    VmfbExport export = m.export(function).orElseThrow();
    assertThat(export.declaration()).hasValue(declaration);
    assertThat(export.abiModel()).isEmpty(); // synchronous: callable on this backend
  }

  @Test
  void everyStubDeclarationIsItsModules() throws IOException {
    assertDeclaration(Adder.FILE, "module", "add", Adder.DECLARATION);
    assertDeclaration(Matmul.FILE, "module", "matmul", Matmul.DECLARATION);
    assertDeclaration(MultiOutput.FILE, "module", "multi_output", MultiOutput.DECLARATION);
    assertDeclaration(IdentityI64.FILE, "module", "identity_i64", IdentityI64.DECLARATION);
    assertDeclaration(AddF64.FILE, "module", "simple_add_f64", AddF64.DECLARATION);
    assertDeclaration(Abs0d.FILE, "module", "abs", Abs0d.DECLARATION);
    assertDeclaration(VmvxMul.FILE, "arithmetic", "simple_mul", VmvxMul.DECLARATION);
    assertDeclaration(SimpleMul.FILE, "module", "simple_mul", SimpleMul.DECLARATION);
    assertDeclaration(Scale.FILE, "module", "scale", Scale.DECLARATION);
    assertDeclaration(Scale2.FILE, "module", "scale2", Scale2.DECLARATION);
  }

  /**
   * micro_speech carries calling conventions only: the stub's declarations must fit them, and its
   * twin must be asynchronous by IREE's naming.
   */
  @Test
  void theSpeechDeclarationsFitTheModulesCallingConventions() throws IOException {
    VmfbModule m = VmfbReader.read(SharedData.require(Speech.FILE));
    VmfbExport sync = m.export("tf2onnx").orElseThrow();
    VmfbExport async = m.export("tf2onnx$async").orElseThrow();
    assertThat(sync.reflection().isEmpty()).isTrue();
    assertThat(async.reflection().isEmpty()).isTrue();
    assertThat(
            CallingConvention.parse(sync.callingConvention().orElseThrow())
                .mismatches(Declaration.parse(Speech.SYNC).toSignature()))
        .isEmpty();
    assertThat(
            CallingConvention.parse(async.callingConvention().orElseThrow())
                .mismatches(Declaration.parse(Speech.ASYNC).toSignature()))
        .isEmpty();
    assertThat(async.signature().signature().model())
        .isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
  }
}
