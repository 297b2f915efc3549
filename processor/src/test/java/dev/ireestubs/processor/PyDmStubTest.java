package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.pydm.PyObjects;
import dev.ireestubs.pydm.PyTuple;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stubs for IREEPyDM functions: exception results become exceptions, objects travel as records. */
class PyDmStubTest {

  static final String[] INTERFACE = {
    "@IreeModule(name = \"py\")",
    "public interface Py {",
    "  @IreeFunction(convention = IreeFunction.Convention.PYDM)",
    "  long add(long a, long b);",
    "  @IreeFunction(value = \"next_item\", convention = IreeFunction.Convention.PYDM)",
    "  Object nextItem(List<Object> items);",
    "  @IreeFunction(convention = IreeFunction.Convention.PYDM)",
    "  void touch(boolean flag);",
    "}"
  };

  @TempDir Path dir;

  private static HostModule module() {
    return HostModule.builder("py")
        .function(
            "add",
            CallingConvention.parse("0II_iI").toSignature(),
            args ->
                VmList.of(
                    VmValue.i32(0),
                    VmValue.i64(args.getValue(0).asI64() + args.getValue(1).asI64())))
        .function(
            "next_item",
            CallingConvention.parse("0r_ir").toSignature(),
            args -> {
              List<?> items = (List<?>) PyObjects.decode(args.getList(0), "items");
              if (items.isEmpty()) {
                return VmList.of(VmValue.i32(-1), VmList.variant(0)); // StopIteration
              }
              return VmList.of(
                  VmValue.i32(0), PyObjects.encode(PyTuple.of(items.get(0), 2.5), "r"));
            })
        .function(
            "touch",
            CallingConvention.parse("0i_ii").toSignature(),
            args -> VmList.of(VmValue.i32(args.getValue(0).asI32() == 1 ? 0 : -4), VmValue.i32(0)))
        .build();
  }

  @Test
  void valuesRecordsAndExceptionsThroughTheGeneratedStub() throws Exception {
    Compilation c = new ProcessorTester(dir).compileClean(source("Py", INTERFACE));
    JavaFileObject stub =
        c.generatedFile(StandardLocation.SOURCE_OUTPUT, "test", "Iree_Py.java").orElseThrow();
    String text = stub.getCharContent(false).toString();
    ProcessorTester.assertGolden(text, "Iree_Py.java");

    CompiledClasses classes = new CompiledClasses(c);
    Object py =
        classes.load("test.Iree_Py").getConstructor(ModuleBackend.class).newInstance(module());
    Class<?> iface = classes.load("test.Py");
    assertThat(call(iface, py, "add", 40L, 2L)).isEqualTo(42L);
    assertThat(call(iface, py, "nextItem", List.of(7, "x".length()))).isEqualTo(PyTuple.of(7, 2.5));
    assertThrows(NoSuchElementException.class, () -> call(iface, py, "nextItem", List.of()));
    call(iface, py, "touch", true);
    IllegalArgumentException valueError =
        assertThrows(IllegalArgumentException.class, () -> call(iface, py, "touch", false));
    assertThat(valueError).hasMessageThat().contains("ValueError");
  }

  @Test
  void typesPyDmCannotCarryAndCallingConventionMismatchesAreCompileErrors() {
    byte[] module =
        TestModules.spec()
            .name("py")
            .bytecodeVersion(17, 0)
            .function("add", "0II_iI")
            .export("add", 0, null)
            .ireeZip();
    try {
      Files.write(dir.resolve("py.vmfb"), module);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    JavaFileObject s =
        source(
            "BadPy",
            "@IreeModule(vmfb = \"py.vmfb\")",
            "interface BadPy {",
            "  @IreeFunction(convention = IreeFunction.Convention.PYDM)",
            "  long add(int a, long b);",
            "  @IreeFunction(value = \"add\", convention = IreeFunction.Convention.PYDM)",
            "  long text(String s, byte[] raw);",
            "}");
    Compilation c = new ProcessorTester(dir).compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] add: as a PyDM function method add is called as 0iI_iI")
        .inFile(s)
        .onLineContaining("long add(");
    assertThat(c)
        .hadErrorContaining("[IreeUnsupportedType] add: s is a java.lang.String, but PyDM's Str")
        .inFile(s)
        .onLineContaining("String s");
    assertThat(c)
        .hadErrorContaining("[IreeUnsupportedType] add: raw is a byte[], but PyDM's Bytes")
        .inFile(s)
        .onLineContaining("String s");
  }

  @Test
  void aPyDmMethodWithoutThePyDmArtifactIsAnErrorOnItsConvention() {
    String classPath = System.getProperty("java.class.path");
    String withoutPyDm =
        Arrays.stream(classPath.split(File.pathSeparator))
            .filter(
                e ->
                    !e.contains("iree-stubs-pydm")
                        && !e.replace('\\', '/').contains("/pydm/target/"))
            .collect(Collectors.joining(File.pathSeparator));
    assertThat(withoutPyDm).isNotEqualTo(classPath); // the tests' own class path has the artifact
    JavaFileObject s =
        source(
            "NoPy",
            "@IreeModule(name = \"py\")",
            "interface NoPy {",
            "  @IreeFunction(value = \"add\", convention = IreeFunction.Convention.PYDM)",
            "  long add(long a, long b);",
            "  @IreeFunction(value = \"touch\", convention = IreeFunction.Convention.PYDM)",
            "  void touch(boolean flag);",
            "}");
    ProcessorTester t = new ProcessorTester(dir).option("-classpath", withoutPyDm);
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeMissingDependency] method add uses the IREEPyDM convention, whose stub calls"
                + " dev.ireestubs.pydm.PyDm, but that class is not on the class path; add the"
                + " dependency dev.ireestubs:iree-stubs-pydm")
        .inFile(s)
        .onLineContaining("value = \"add\"");
    assertThat(c)
        .hadErrorContaining("[IreeMissingDependency] method touch uses the IREEPyDM convention")
        .inFile(s)
        .onLineContaining("value = \"touch\"");
    // Two errors, the processor's own: no stub was written, so javac found nothing to complain of.
    assertThat(c.errors()).hasSize(2);
    assertThat(t.models).isEmpty();
  }
}
