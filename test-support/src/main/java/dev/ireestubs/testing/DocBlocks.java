package dev.ireestubs.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The code blocks of README.md and docs/*.md, for the tests that keep them compiling. Every {@code
 * ```java} block is preceded by a marker comment saying what it is:
 *
 * <ul>
 *   <li>{@code <!-- quickstart:Name.java ... -->} or {@code <!-- java:unit -->}: a compilation
 *       unit, compiled as written (with the other units of its page, and the processor);
 *   <li>{@code <!-- java:unit iree -->}: a compilation unit that needs runtime-iree's class path,
 *       compiled by its test (with the processor) together with the other {@code iree} units and
 *       fragments, from every page: a unit may use the types another page's {@code iree} unit
 *       declares;
 *   <li>{@code <!-- java:fragment CONTEXT -->}: statements, compiled inside the method of a class
 *       that declares the names they use ({@link #wrap}); the context says which module's test
 *       compiles them ({@code iree}: runtime-iree's, on JDK 22+; {@code micrometer});
 *   <li>{@code <!-- java:skip REASON -->}: not compiled, for the reason given.
 * </ul>
 *
 * <p>The models the blocks name ({@code models/add.vmfb}, ...) are written by {@link #writeModels}
 * with {@link TestModules}, with the declarations the pages quote.
 */
public final class DocBlocks {

  /** The contexts a fragment may name, each compiled by one module's test. */
  public static final List<String> CONTEXTS = List.of("iree", "micrometer");

  /**
   * The names a fragment of each context uses without declaring them, as fields of the class that
   * wraps it. docs/index.md lists them for readers (a docs test checks that it does).
   */
  public static final Map<String, String> FRAGMENT_FIELDS =
      Map.of(
          "iree", "Path vmfb; FloatArray a, b, x; IreeRuntime runtime; Parameters weights;",
          "micrometer", "HostModule backend; MeterRegistry meterRegistry;");

  /** The undeclared names of a context's fragments: {@code vmfb}, {@code a}, ... */
  public static List<String> fragmentNames(String context) {
    List<String> names = new ArrayList<>();
    for (String declaration : FRAGMENT_FIELDS.get(context).split(";")) {
      String[] words = declaration.trim().split("\\s+", 2);
      if (words.length == 2) {
        for (String name : words[1].split(",")) {
          names.add(name.trim());
        }
      }
    }
    return names;
  }

  private static final Pattern BLOCK =
      Pattern.compile(
          "(?:<!--\\s*(?<marker>[^>]*?)\\s*-->\\s*\\n\\s*)?```java\\n(?<code>.*?)```",
          Pattern.DOTALL);

  /** One block: where it is, its marker (empty when none) and its code. */
  public record Block(String page, int line, String marker, String code) {

    /** {@code unit}, {@code fragment}, {@code skip}, or {@code unmarked}. */
    public String kind() {
      if (marker.startsWith("quickstart:")
          || marker.equals("java:unit")
          || marker.startsWith("java:unit ")) {
        return "unit";
      }
      if (marker.startsWith("java:fragment ")) {
        return "fragment";
      }
      if (marker.startsWith("java:skip ")) {
        return "skip";
      }
      return "unmarked";
    }

    /** A fragment's context, a skipped block's reason. */
    public String argument() {
      int space = marker.indexOf(' ');
      return space < 0 ? "" : marker.substring(space + 1).trim();
    }

    /**
     * The context whose test compiles this block: a fragment's, or a unit's marked {@code java:unit
     * CONTEXT}; empty for the other blocks (units compiled by DocsCodeBlocksTest).
     */
    public String context() {
      return marker.startsWith("java:unit ") || marker.startsWith("java:fragment ")
          ? argument()
          : "";
    }

    /** Where it is, for messages: {@code docs/async.md:12}. */
    public String where() {
      return page + ":" + line;
    }

    /** The name of the unit's file: its first type's, or package-info. */
    public String fileName() {
      Matcher m =
          Pattern.compile(
                  "(?m)^(?:public\\s+)?(?:final\\s+)?(?:interface|class|record|enum)\\s+(\\w+)")
              .matcher(code);
      return (m.find() ? m.group(1) : "package-info") + ".java";
    }

    /** The unit's package, from its package clause. */
    public String packageName() {
      Matcher m = Pattern.compile("(?m)^package\\s+([\\w.]+);").matcher(code);
      return m.find() ? m.group(1) : "";
    }
  }

  private DocBlocks() {}

  /** The checkout's root: the nearest directory up from here that has README.md and docs/. */
  public static Path root() {
    Path p = Paths.get("").toAbsolutePath();
    while (p != null) {
      if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))) {
        return p;
      }
      p = p.getParent();
    }
    throw new IllegalStateException(
        "no README.md beside a docs/ folder above " + Paths.get("").toAbsolutePath());
  }

  /** README.md, then docs/*.md in name order, relative to the root. */
  public static List<String> pages() {
    Path root = root();
    List<String> pages = new ArrayList<>();
    pages.add("README.md");
    try (Stream<Path> s = Files.list(root.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md"))
          .map(p -> "docs/" + p.getFileName())
          .sorted()
          .forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  /** Every Java block of every page. */
  public static List<Block> javaBlocks() {
    List<Block> blocks = new ArrayList<>();
    for (String page : pages()) {
      String text = read(root().resolve(page));
      Matcher m = BLOCK.matcher(text);
      while (m.find()) {
        int line =
            1 + (int) text.substring(0, m.start("code")).chars().filter(c -> c == '\n').count();
        String marker = m.group("marker") == null ? "" : m.group("marker");
        blocks.add(new Block(page, line - 1, marker, m.group("code")));
      }
    }
    return blocks;
  }

  /**
   * The blocks of one kind and context ({@link Block#context()}: empty for the units
   * DocsCodeBlocksTest compiles), or of every context when {@code context} is null.
   */
  public static List<Block> blocks(String kind, String context) {
    return javaBlocks().stream()
        .filter(b -> b.kind().equals(kind))
        .filter(b -> context == null || b.context().equals(context))
        .collect(Collectors.toList());
  }

  /**
   * A fragment as a compilation unit: a class {@code Fragment<n>} in package com.acme whose fields
   * are the names the pages' fragments use, and whose method holds the fragment.
   */
  public static String wrap(String context, Block block, int n) {
    String imports;
    String fields;
    switch (context) {
      case "iree" -> {
        imports =
            """
            import dev.ireestubs.iree.*;
            import dev.ireestubs.iree.IreeBackend.Options;
            import dev.ireestubs.ndarray.FloatArray;
            import java.nio.file.Path;
            import java.time.Duration;
            """;
        fields = FRAGMENT_FIELDS.get(context);
      }
      case "micrometer" -> {
        imports =
            """
            import dev.ireestubs.host.HostModule;
            import dev.ireestubs.micrometer.IreeStubsMetrics;
            import io.micrometer.core.instrument.MeterRegistry;
            import io.micrometer.core.instrument.Tags;
            """;
        fields = FRAGMENT_FIELDS.get(context);
      }
      default ->
          throw new IllegalArgumentException(
              block.where() + ": unknown context '" + context + "'; known: " + CONTEXTS);
    }
    return "package com.acme;\n\n"
        + imports
        + "\n/** "
        + block.where()
        + " */\n"
        + "abstract class Fragment"
        + n
        + " {\n  "
        + fields
        + "\n\n"
        + "  void run() throws Exception {\n"
        + block.code()
        + "  }\n}\n";
  }

  /** Interfaces the fragments of a context call through their stubs (Iree_Adder, Iree_Scale2). */
  public static Map<String, String> interfaces() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(
        "com/acme/Adder.java",
        "package com.acme;\n"
            + "@dev.ireestubs.annotations.IreeModule(vmfb = \"models/add.vmfb\")\n"
            + "public interface Adder {\n"
            + "  dev.ireestubs.ndarray.FloatArray add("
            + "dev.ireestubs.ndarray.FloatArray a, dev.ireestubs.ndarray.FloatArray b);\n}\n");
    m.put(
        "com/acme/Scale2.java",
        """
        package com.acme;
        @dev.ireestubs.annotations.IreeModule(vmfb = "models/scale2.vmfb")
        public interface Scale2 {
          dev.ireestubs.ndarray.FloatArray scale2(dev.ireestubs.ndarray.FloatArray x);
        }
        """);
    return m;
  }

  /** Writes the models the pages' blocks name into {@code dir} (the processor's reflectionDir). */
  public static void writeModels(Path dir) throws IOException {
    String t4 = "tensor<4xf32>";
    write(
        dir,
        "models/add.vmfb",
        module(
            "module",
            "add",
            "0rr_r",
            "sync func @add(%input0: " + t4 + ", %input1: " + t4 + ") -> (%output0: " + t4 + ")"));
    write(
        dir,
        "models/scale2.vmfb",
        module(
            "module",
            "scale2",
            "0r_r",
            "sync func @scale2(%input0: " + t4 + ") -> (%output0: " + t4 + ")"));
    write(
        dir,
        "models/scorer.vmfb",
        module(
            "scorer",
            "score",
            "0r_r",
            "sync func @score(%input0: tensor<?x4xf32>) -> (%output0: tensor<?x2xf32>)"));
    write(
        dir,
        "models/mobilenet.vmfb",
        module(
            "mobilenet",
            "predict",
            "0r_r",
            "sync func @predict(%input0: tensor<1x224x224x3xf32>) -> (%output0: tensor<1x1000xf32>)"));
    TestModules.Spec classifier =
        TestModules.spec()
            .name("classifier")
            .bytecodeVersion(17, 0)
            .function(
                "matmul",
                "0rr_r",
                "iree.abi.declaration",
                "sync func @matmul(%input0: tensor<3x4xf32>, %input1: tensor<4x2xf32>)"
                    + " -> (%output0: tensor<3x2xf32>)")
            .function("main", "0rr_r");
    classifier.export("matmul", 0, null);
    classifier.export("main", 1, null);
    write(dir, "models/classifier.vmfb", classifier.ireeZip());
    String speech = "(%input0: tensor<1x49x40x1xi8>) -> (%output0: tensor<1x4xf32>)";
    TestModules.Spec microSpeech =
        TestModules.spec()
            .name("module")
            .bytecodeVersion(17, 0)
            .function("tf2onnx", "0r_r", "iree.abi.declaration", "sync func @tf2onnx" + speech)
            .function(
                "tf2onnx$async",
                "0rrr_r",
                "iree.abi.declaration",
                "async func @tf2onnx$async" + speech,
                "iree.abi.model",
                "coarse-fences");
    microSpeech.export("tf2onnx", 0, null);
    microSpeech.export("tf2onnx$async", 1, null);
    write(dir, "models/micro_speech.vmfb", microSpeech.ireeZip());
    write(
        dir,
        "classifier.abi.json",
        ("{\"predict\": {\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",3,1,4,4]]]],"
                + "\"r\":[[\"ndarray\",\"f32\",2,1,10]],\"v\":1}}")
            .getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] module(String name, String function, String cconv, String declaration) {
    TestModules.Spec spec =
        TestModules.spec()
            .name(name)
            .bytecodeVersion(17, 0)
            .function(function, cconv, "iree.abi.declaration", declaration);
    spec.export(function, 0, null);
    return spec.ireeZip();
  }

  private static void write(Path dir, String name, byte[] bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
  }

  /**
   * Compiles {@code sources} (path under the source root to text) into {@code dir/classes}, with
   * this JVM's class path, and the iree-stubs processor from it when {@code processor}; returns the
   * errors and warnings, each with its file and line, empty when there are none.
   */
  public static List<String> compile(Path dir, Map<String, String> sources, boolean processor)
      throws IOException {
    Path src = dir.resolve("src");
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Path p = src.resolve(e.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
      files.add(p);
    }
    String classPath = System.getProperty("java.class.path");
    List<String> options =
        new ArrayList<>(
            List.of(
                "-d",
                classes.toString(),
                "-cp",
                classPath,
                "-s",
                dir.resolve("generated").toString(),
                "-Xlint:-options"));
    Files.createDirectories(dir.resolve("generated"));
    if (processor) {
      options.addAll(List.of("-processorpath", classPath, "-Airee.reflectionDir=" + dir));
    } else {
      options.add("-proc:none");
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fm =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      StringWriter out = new StringWriter();
      javac
          .getTask(out, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files))
          .call();
      List<String> problems = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR
            || d.getKind() == Diagnostic.Kind.WARNING
            || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING) {
          String file =
              d.getSource() == null
                  ? ""
                  : src.relativize(Paths.get(d.getSource().toUri()))
                      + ":"
                      + d.getLineNumber()
                      + ": ";
          problems.add(d.getKind() + " " + file + d.getMessage(Locale.ROOT));
        }
      }
      if (!out.toString().isBlank()) {
        problems.add(out.toString());
      }
      return problems;
    }
  }

  /** The source path of a unit block: its package as folders, then its file name. */
  public static String path(Block unit) {
    String pkg = unit.packageName();
    return (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + unit.fileName();
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
