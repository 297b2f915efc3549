package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.testing.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The bytecode reader against the real modules of {@code ../shared/iree-reflection} ({@code vmfb/},
 * {@code models/}, {@code params/}): wherever a module has both an {@code iree.abi.declaration} and
 * bytecode the reader types, the two agree (argument and result types; the declaration's names
 * aside); and for bytecode 17, every op the reader walks is the op IREE's own disassembler lists,
 * at the same offset ({@code iree-dump-module --output=disassembly} of the runtime tools the
 * project's script builds).
 */
class BytecodeConformanceTest {

  static List<Path> modules() throws IOException {
    Path root = SharedData.requireDirectory();
    List<Path> files = new ArrayList<>();
    for (String dir : new String[] {"vmfb", "models", "params"}) {
      Path d = root.resolve(dir);
      if (!Files.isDirectory(d)) {
        continue;
      }
      try (Stream<Path> s = Files.list(d)) {
        s.filter(p -> p.getFileName().toString().endsWith(".vmfb"))
            .filter(p -> !p.getFileName().toString().startsWith("LFS-POINTER"))
            .sorted()
            .forEach(files::add);
      }
    }
    return files;
  }

  @Test
  void bytecodeTypesAgreeWithEveryDeclaration() throws Exception {
    int modulesTyped = 0;
    int functionsTyped = 0;
    int compared = 0;
    List<String> disagreements = new ArrayList<>();
    List<String> untypedWithDeclaration = new ArrayList<>();
    for (Path file : modules()) {
      VmfbModule module = VmfbReader.read(file);
      boolean typed = false;
      for (VmfbExport e : module.exports()) {
        if (e.bytecodeTypes().signature().isEmpty()) {
          if (e.declaration().isPresent() && e.callingConvention().orElse("").contains("r")) {
            untypedWithDeclaration.add(file.getFileName() + " " + e.name());
          }
          continue;
        }
        typed = true;
        functionsTyped++;
        FunctionSignature bytecode = e.bytecodeTypes().signature().get();
        if (e.declaration().isEmpty()) {
          continue;
        }
        FunctionSignature declared;
        try {
          declared = Declaration.parse(e.declaration().get()).toSignature();
        } catch (AbiParseException notParsed) {
          continue;
        }
        compared++;
        String a = plain(declared);
        String b = plain(bytecode);
        if (!a.equals(b)) {
          disagreements.add(
              file.getFileName() + " " + e.name() + ": declared " + a + ", bytecode " + b);
        }
      }
      modulesTyped += typed ? 1 : 0;
    }
    System.out.printf(
        Locale.ROOT,
        "bytecode types: %d modules, %d functions typed from bytecode; %d compared with their"
            + " declaration, %d agree, %d disagree %s; not typed though declared: %s%n",
        modulesTyped,
        functionsTyped,
        compared,
        compared - disagreements.size(),
        disagreements.size(),
        disagreements,
        untypedWithDeclaration);
    assertThat(disagreements).isEmpty();
    assertThat(compared).isAtLeast(15);
    assertThat(functionsTyped).isAtLeast(25);
  }

  /**
   * No compiled module yields: iree-compile writes no {@code vm.yield} (its functions wait with
   * {@code hal.fence.await}, a wait IREE's runtime resumes), so the reader finds none in any export
   * it can read, and a backend that refuses functions that yield refuses none of these. What else
   * their calls reach is either one of IREE's native modules ({@code hal}, {@code io_parameters},
   * or {@code hal_inline}/{@code hal_loader}/{@code vmvx} of other targets) or, in a pipeline
   * (SDXL's), another compiled module's export, which the runtime judges once it is loaded.
   */
  @Test
  void noCompiledModuleYields() throws Exception {
    int read = 0;
    int awaiting = 0;
    List<String> yielding = new ArrayList<>();
    List<String> otherModules = new ArrayList<>();
    List<String> natives = List.of("hal", "hal_inline", "hal_loader", "io_parameters", "vmvx");
    for (Path file : modules()) {
      VmfbModule module = VmfbReader.read(file);
      for (VmfbExport e : module.exports()) {
        YieldReach reach = e.yieldReach();
        if (reach.unread().isEmpty()) {
          read++;
        }
        reach
            .yieldAt()
            .ifPresent(y -> yielding.add(file.getFileName() + " " + e.name() + ": " + y));
        if (reach.imports().contains("hal.fence.await")) {
          awaiting++;
        }
        for (String i : reach.imports()) {
          if (!natives.contains(i.substring(0, Math.max(0, i.indexOf('.'))))) {
            otherModules.add(e.name() + " -> " + i);
          }
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "yields: %d exports read, %d reach hal.fence.await, none yields: %s; imports of other"
            + " modules: %s%n",
        read,
        awaiting,
        yielding,
        otherModules);
    assertThat(yielding).isEmpty();
    assertThat(read).isAtLeast(25);
    assertThat(awaiting).isAtLeast(10);
  }

  /** The signature without names: the model and each argument's and result's type. */
  private static String plain(FunctionSignature s) {
    return (s.model() == FunctionSignature.CallingModel.COARSE_FENCES ? "async " : "")
        + s.arguments().stream()
            .map(BytecodeConformanceTest::unnamed)
            .collect(Collectors.joining(", ", "(", ")"))
        + " -> "
        + s.results().stream()
            .map(BytecodeConformanceTest::unnamed)
            .collect(Collectors.joining(", ", "(", ")"));
  }

  private static String unnamed(AbiType t) {
    return (t instanceof AbiType.Named ? ((AbiType.Named) t).type() : t).toString();
  }

  // ---------------------------------------------------------------- IREE's disassembler

  /** IREE v3.11.0's iree-dump-module where the project's script installs it, or null. */
  static Path dumpModule() {
    String xdg = System.getenv("XDG_DATA_HOME");
    Path data =
        xdg != null && Path.of(xdg).isAbsolute()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".local", "share");
    String os =
        System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")
            ? "linux"
            : "other";
    String arch =
        System.getProperty("os.arch").equals("amd64") ? "x86_64" : System.getProperty("os.arch");
    Path tool =
        data.resolve("iree-stubs/iree-runtime/3.11.0/" + os + "-" + arch + "/bin/iree-dump-module");
    return Files.isExecutable(tool) ? tool : null;
  }

  private static final Pattern FUNCTION = Pattern.compile("// Disassembly: .*\\(#(\\d+)\\)");
  private static final Pattern OP = Pattern.compile("\\[([0-9A-F]{8})\\]\\s+(.*)");

  /** {@code offset mnemonic} per op, per function, as the tool prints them. */
  static List<List<String>> disassembly(Path tool, Path module) throws Exception {
    Process p =
        new ProcessBuilder(tool.toString(), "--output=disassembly", module.toString())
            .redirectErrorStream(true)
            .start();
    String text;
    try (InputStream in = p.getInputStream()) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertWithMessage("%s: %s", module, text).that(p.exitValue()).isEqualTo(0);
    List<List<String>> functions = new ArrayList<>();
    for (String line : text.split("\n")) {
      Matcher f = FUNCTION.matcher(line);
      if (f.matches()) {
        assertThat(Integer.parseInt(f.group(1))).isEqualTo(functions.size());
        functions.add(new ArrayList<>());
        continue;
      }
      Matcher op = OP.matcher(line);
      if (op.matches()) {
        String body = op.group(2);
        String code = body.split("//", 2)[0];
        if (!body.startsWith("vm.") && code.contains(" = ")) {
          body = body.substring(body.indexOf(" = ") + 3);
        }
        functions.get(functions.size() - 1).add(op.group(1) + " " + body.split("\\s+", 2)[0]);
      }
    }
    return functions;
  }

  @Test
  void everyOpOfEveryBytecode17FunctionIsTheOneIreesDisassemblerLists() throws Exception {
    Path tool = dumpModule();
    assumeTrue(
        tool != null,
        "IREE v3.11.0's iree-dump-module is not installed where runtime-iree/scripts/"
            + "build-iree-runtime.sh puts it (~/.local/share/iree-stubs/iree-runtime/3.11.0/"
            + "<os>-<arch>/bin); the cross-check with IREE's disassembler is skipped");
    int modules = 0;
    int functions = 0;
    int ops = 0;
    for (Path file : modules()) {
      if (!VmfbReader.read(file).bytecodeVersion().map(v -> v.major() == 17).orElse(false)) {
        continue;
      }
      List<List<String>> ours = new ArrayList<>();
      VmfbReader.inspect(
          Files.readAllBytes(file),
          file.toString(),
          (fb, c) ->
              ours.addAll(
                  BytecodeTypeReader.listing(
                      fb,
                      c.code(),
                      c.bytecodeVersion().orElseThrow(),
                      ImportReader.imports(fb, fb.root(), c.era()))));
      List<List<String>> theirs = disassembly(tool, file);
      assertWithMessage("%s", file.getFileName()).that(ours).isEqualTo(theirs);
      modules++;
      functions += ours.size();
      ops += ours.stream().mapToInt(List::size).sum();
    }
    System.out.printf(
        Locale.ROOT,
        "bytecode 17 against iree-dump-module: %d modules, %d functions, %d ops at the same offsets"
            + " with the same mnemonics%n",
        modules,
        functions,
        ops);
    assertThat(modules).isAtLeast(10);
  }
}
