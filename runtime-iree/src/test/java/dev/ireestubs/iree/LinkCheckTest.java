package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library linked incompletely is refused with an exception instead of ending the process: the
 * test builds, with gcc, a library that exports every symbol iree-stubs needs but calls a function
 * nothing defines (the same shape as IREE's runtime linked without flatcc). Skipped without gcc.
 */
class LinkCheckTest {

  @TempDir Path dir;

  /** The symbols of required-symbols.txt ("a or b": the first), as the library must export. */
  static List<String> requiredSymbols() throws IOException {
    List<String> out = new ArrayList<>();
    try (InputStream in =
        LinkCheckTest.class.getResourceAsStream("/dev/ireestubs/iree/required-symbols.txt")) {
      assertThat(in).isNotNull();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String s = line.replaceAll("#.*", "").strip();
        if (!s.isEmpty()) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** Compiles C source into a shared library with gcc; skips the test without gcc. */
  private Path sharedLibrary(String name, String source) throws Exception {
    Path c = Files.writeString(dir.resolve(name + ".c"), source);
    Path so = dir.resolve(name + ".so");
    Process gcc;
    try {
      gcc =
          new ProcessBuilder("gcc", "-shared", "-fPIC", "-o", so.toString(), c.toString())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      String message = "SKIPPED: gcc is not installed: cannot build the test library (" + e + ")";
      System.out.println(message);
      assumeTrue(false, message);
      throw e;
    }
    String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(output).isEmpty();
    assertThat(gcc.exitValue()).isEqualTo(0);
    return so;
  }

  /** Every required symbol defined; each function calls {@code callee}. */
  private static String fakeRuntime(String callee, boolean defineCallee) throws IOException {
    StringBuilder c = new StringBuilder("void " + callee + "(void)");
    c.append(defineCallee ? " {}\n" : ";\n");
    for (String symbol : requiredSymbols()) {
      String name = symbol.split(" or ")[0];
      if (name.endsWith("_registration")) {
        c.append("unsigned long ").append(name).append(" = 0;\n");
      } else {
        c.append("void ").append(name).append("(void) { ").append(callee).append("(); }\n");
      }
    }
    return c.toString();
  }

  @Test
  void aLibraryWithAnUnresolvedSymbolIsRefusedBeforeItCanEndTheProcess() throws Exception {
    assumeTrue(Libc.hasDlopen(), "this platform has no dlopen to check with");
    Path broken =
        sharedLibrary("libbroken_iree", fakeRuntime("flatcc_verify_table_as_root", false));
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(broken));
    assertThat(e).hasMessageThat().contains("libbroken_iree.so");
    assertThat(e).hasMessageThat().contains("undefined symbol: flatcc_verify_table_as_root");
    assertThat(e).hasMessageThat().contains("exit code 127");
    assertThat(e)
        .hasMessageThat()
        .contains("rebuild it with runtime-iree/scripts/build-iree-runtime.sh");
  }

  @Test
  void theSameLibraryWithTheSymbolDefinedLoads() throws Exception {
    assumeTrue(Libc.hasDlopen(), "this platform has no dlopen to check with");
    Path complete = sharedLibrary("libcomplete_iree", fakeRuntime("helper_defined_here", true));
    // Every symbol is there and resolves: the library loads (nothing in it is called).
    assertThat(IreeLibrary.load(complete).path()).isEqualTo(complete.toRealPath());
  }

  @Test
  void aFileThatIsNotALibraryIsReportedAsSuch() throws IOException {
    assumeTrue(Libc.hasDlopen(), "this platform has no dlopen to check with");
    Path text = Files.writeString(dir.resolve("libiree_runtime.so"), "not a library");
    IreeLibraryException e = assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(text));
    assertThat(e).hasMessageThat().contains(text + " (from the path given to IreeLibrary.load)");
    assertThat(e).hasMessageThat().contains("cannot be loaded as a shared library");
    assertThat(e).hasMessageThat().doesNotContain("/proc/self/fd");
    assertThat(LibraryLoader.isUnresolvedSymbol(e.getMessage())).isFalse();
  }

  @Test
  void requiredSymbolsTxtListsExactlyWhatNativeResolves() throws IOException {
    // Any address will do: the handles are made, never called.
    MemorySegment somewhere = Linker.nativeLinker().defaultLookup().find("strlen").orElseThrow();
    Native api =
        new Native(name -> Optional.of(somewhere), "every symbol", RuntimeRelease.unknown());
    assertThat(requiredSymbols()).containsExactlyElementsIn(api.requiredSymbols()).inOrder();
  }
}
