package dev.ireestubs.cli;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.derive.*;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's exit statuses and messages, run without {@code System.exit}. */
class MainTest {

  @Test
  void noCommandPrintsUsageAndExits2() {
    CliRun r = CliRun.of();
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("no command given\n" + Main.USAGE_TEXT);
  }

  @Test
  void unknownCommandPrintsUsageAndExits2() {
    CliRun r = CliRun.of("inpsect", "model.vmfb");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("unknown command 'inpsect'\nusage: java -jar ");
  }

  @Test
  void inspectWithoutOneFileExits2() {
    CliRun none = CliRun.of("inspect");
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err())
        .startsWith("inspect takes one file, the module to inspect; got 0 arguments\nusage:");
    CliRun two = CliRun.of("inspect", "a.vmfb", "b.vmfb");
    assertThat(two.status()).isEqualTo(2);
    assertThat(two.err()).contains("got 2 arguments");
  }

  @Test
  void helpPrintsUsageToStandardOutput() {
    for (String help : new String[] {"help", "-h", "--help"}) {
      CliRun r = CliRun.of(help);
      assertThat(r.status()).isEqualTo(0);
      assertThat(r.out()).isEqualTo(Main.USAGE_TEXT);
      assertThat(r.err()).isEmpty();
    }
  }

  @Test
  void inspectOfANonModulePrintsTheReadersMessageAndExits1(@TempDir Path dir) throws Exception {
    Path text = dir.resolve("notes.vmfb");
    Files.writeString(text, "this is a text file, not a compiled module\n");
    VmfbFormatException expected =
        assertThrows(VmfbFormatException.class, () -> VmfbReader.read(text));

    CliRun r = CliRun.of("inspect", text.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(expected.getMessage() + System.lineSeparator());
    assertThat(r.err()).contains(text.toString());
  }

  @Test
  void inspectOfAnEmptyFileExits1(@TempDir Path dir) throws Exception {
    Path empty = Files.createFile(dir.resolve("empty.vmfb"));
    CliRun r = CliRun.of("inspect", empty.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith(empty.toString() + ": ");
  }

  @Test
  void inspectOfAMissingFileExits1(@TempDir Path dir) {
    Path missing = dir.resolve("missing.vmfb");
    CliRun r = CliRun.of("inspect", missing.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(missing + ": no such file" + System.lineSeparator());
  }

  @Test
  void inspectOfADirectoryExits1(@TempDir Path dir) {
    CliRun r = CliRun.of("inspect", dir.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith(dir.toString());
  }

  @Test
  void inspectWithPackagePrintsTheDerivedClientAsOneSourceFile(@TempDir Path dir) throws Exception {
    TestModules.Spec spec =
        TestModules.spec()
            .name("adder")
            .bytecodeVersion(17, 0)
            .function(
                "simple_add",
                "0rr_r",
                "iree.abi.declaration",
                "sync func @simple_add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) ->"
                    + " (%output0: tensor<4xf32>)")
            .function("__init", "0v_v");
    spec.export("simple_add", 0, null).export("__init", 1, null);
    Path vmfb = dir.resolve("adder.vmfb");
    Files.write(vmfb, spec.ireeZip());
    CliRun r =
        CliRun.of("inspect", "--package", "com.acme.models", "--name", "Sum", vmfb.toString());
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out()).startsWith("package com.acme.models;\n\nimport ");
    assertThat(r.out()).contains("@IreeModule(vmfb = \"adder.vmfb\")\npublic interface Sum {\n");
    assertThat(r.out()).contains("  FloatArray simpleAdd(FloatArray input0, FloatArray input1);\n");
    // It is the client @IreeClient derives, and compiles with the processor when the module is
    // found under its base name.
    assertThat(r.out())
        .isEqualTo(
            InterfaceWriter.write(
                ClientDeriver.derive(
                    VmfbReader.read(vmfb), "adder.vmfb", java.util.Optional.of("Sum")),
                "com.acme.models"));
    assertThat(
            Javac.problemsOfFile(
                "com.acme.models", "Sum", r.out(), List.of("-Airee.reflectionDir=" + dir)))
        .isEmpty();
  }

  @Test
  void inspectWithABadPackageOrNameExits2() {
    assertThat(CliRun.of("inspect", "--package", "1bad", "m.vmfb").status()).isEqualTo(2);
    assertThat(CliRun.of("inspect", "--package", "p", "--name", "class", "m.vmfb").err())
        .startsWith("--name class is not a Java type name\n");
    assertThat(CliRun.of("inspect", "--name", "N", "m.vmfb").err())
        .startsWith("--name needs --package");
    assertThat(CliRun.of("inspect", "m.vmfb", "--package").err())
        .startsWith("--package needs a value");
  }
}
