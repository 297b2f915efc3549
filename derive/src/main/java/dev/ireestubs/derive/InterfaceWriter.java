package dev.ireestubs.derive;

import dev.ireestubs.derive.InterfaceSuggestion.Method;
import dev.ireestubs.derive.InterfaceSuggestion.Omitted;
import dev.ireestubs.derive.InterfaceSuggestion.RecordType;
import dev.ireestubs.derive.InterfaceSuggestion.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Prints an {@link InterfaceSuggestion} as one Java compilation unit: package line, imports, then
 * the annotated public interface with its Javadoc, each method's records before it and the omitted
 * exports as comments at the end. Makes no decisions: every name and type is in the suggestion. The
 * text is ASCII whatever the metadata holds.
 */
public final class InterfaceWriter {

  /** Lines longer than this put one parameter or component per line. */
  private static final int WIDTH = 100;

  private static final String INDENT = "  ";

  private final String packageName;
  private final Optional<String> generatedBy;
  private final Map<String, String> inlineReflection;

  private InterfaceWriter(
      String packageName, Optional<String> generatedBy, Map<String, String> inlineReflection) {
    this.packageName = Objects.requireNonNull(packageName, "packageName");
    this.generatedBy = Objects.requireNonNull(generatedBy, "generatedBy");
    this.inlineReflection = Map.copyOf(inlineReflection);
  }

  /**
   * The source text of the interface in package {@code packageName} (empty: the unnamed package).
   *
   * @param s the interface to write
   * @param packageName the package to declare, or an empty string for none
   * @return the Java source of one compilation unit
   */
  public static String write(InterfaceSuggestion s, String packageName) {
    return new InterfaceWriter(packageName, Optional.empty(), Map.of()).text(s);
  }

  /**
   * As {@link #write(InterfaceSuggestion, String)}, marked {@code @Generated} by {@code generator}
   * (a processor's class name), for an interface written during the build.
   *
   * @param s the interface to write
   * @param packageName the package to declare, or an empty string for none
   * @param generator the value of the {@code @Generated} annotation
   * @return the Java source of one compilation unit
   */
  public static String writeGenerated(InterfaceSuggestion s, String packageName, String generator) {
    return new InterfaceWriter(packageName, Optional.of(generator), Map.of()).text(s);
  }

  /**
   * As {@link #write(InterfaceSuggestion, String)} in the unnamed package, but each method whose
   * export is a key of {@code inlineReflection} carries that reflection text in
   * {@code @IreeFunction(abi = ...)} and the module names no file: for checking the interface with
   * the processor without the module file.
   *
   * @param s the interface to write
   * @param inlineReflection the reflection text of each export to carry inline, by export name
   * @return the Java source of one compilation unit in the unnamed package
   */
  public static String writeInline(InterfaceSuggestion s, Map<String, String> inlineReflection) {
    return new InterfaceWriter("", Optional.empty(), inlineReflection).text(s);
  }

  private String text(InterfaceSuggestion s) {
    StringBuilder sb = new StringBuilder();
    if (!packageName.isEmpty()) {
      sb.append("package ").append(packageName).append(";\n\n");
    }
    List<String> imports = new ArrayList<>(s.imports());
    String ireeFunction = InterfaceSuggester.ANNOTATIONS + "IreeFunction";
    if (!inlineReflection.isEmpty() && !imports.contains(ireeFunction)) {
      imports.add(ireeFunction);
    }
    generatedBy.ifPresent(g -> imports.add("javax.annotation.processing.Generated"));
    imports.sort(null);
    for (String i : imports) {
      sb.append("import ").append(i).append(";\n");
    }
    sb.append('\n');
    writeInterfaceDoc(sb, s);
    generatedBy.ifPresent(
        g -> sb.append("@Generated(").append(JavaNames.stringLiteral(g)).append(")\n"));
    sb.append("@IreeModule(");
    if (inlineReflection.isEmpty() && s.source().compiled()) {
      // The name defaults to the module's own, and any other is an error.
      sb.append("vmfb = ").append(JavaNames.stringLiteral(s.source().path()));
    } else {
      sb.append("name = ").append(JavaNames.stringLiteral(s.moduleName()));
      if (inlineReflection.isEmpty()) {
        sb.append(", abi = ").append(JavaNames.stringLiteral(s.source().path()));
      }
    }
    sb.append(")\n");
    sb.append("public interface ").append(s.interfaceName()).append(" {\n");
    boolean first = true;
    for (Method m : s.methods()) {
      for (RecordType r : m.records()) {
        sb.append(first ? "" : "\n");
        first = false;
        writeRecord(sb, r);
      }
      sb.append(first ? "" : "\n");
      first = false;
      writeMethod(sb, m, Optional.ofNullable(inlineReflection.get(m.function())));
    }
    if (!s.omitted().isEmpty()) {
      sb.append(first ? "" : "\n");
      sb.append(INDENT).append("// Not in this interface:\n");
      for (Omitted o : s.omitted()) {
        sb.append(INDENT)
            .append("// ")
            .append(JavaNames.commentText(o.function() + ": " + o.reason()))
            .append('\n');
      }
    }
    return sb.append("}\n").toString();
  }

  private static void writeInterfaceDoc(StringBuilder sb, InterfaceSuggestion s) {
    sb.append("/**\n * The typed client of IREE module ")
        .append(JavaNames.javadocCode(s.moduleName()))
        .append(", derived by iree-stubs from ")
        .append(JavaNames.javadocCode(s.source().path()))
        .append(": one method per exported function.\n");
    for (String note : s.notes()) {
      sb.append(" *\n * <p>").append(JavaNames.javadocText(note)).append('\n');
    }
    sb.append(" */\n");
  }

  private static void writeRecord(StringBuilder sb, RecordType r) {
    sb.append(INDENT).append("/** Holds ").append(JavaNames.javadocText(r.what())).append(". */\n");
    List<String> components = new ArrayList<>();
    r.components().forEach(c -> components.add(variable(c)));
    appendList(sb, INDENT + "record " + r.name(), components, " {}");
  }

  private static void writeMethod(StringBuilder sb, Method m, Optional<String> inline) {
    sb.append(INDENT).append("/**\n");
    sb.append(INDENT)
        .append(" * Calls ")
        .append(JavaNames.javadocCode(m.function()))
        .append(m.unchecked() ? " (unchecked)" : "")
        .append(":\n");
    sb.append(INDENT).append(" *\n");
    sb.append(INDENT)
        .append(" * <pre>")
        .append(JavaNames.javadocCode(m.reflection()))
        .append("</pre>\n");
    sb.append(INDENT).append(" *\n");
    sb.append(INDENT)
        .append(" * <p>Checked against ")
        .append(JavaNames.javadocCode(m.checkedAgainst()))
        .append(".\n");
    for (String c : m.comments()) {
      sb.append(INDENT).append(" *\n");
      sb.append(INDENT).append(" * <p>").append(JavaNames.javadocText(c)).append('\n');
    }
    if (m.unchecked()) {
      sb.append(INDENT).append(" *\n");
      sb.append(INDENT)
          .append(" * <p>Unchecked: only the calling convention describes this function, so its")
          .append(" refs are opaque (a buffer view for a tensor, a list for a list) and nothing")
          .append(" checks their types or shapes before the call.\n");
    }
    sb.append(INDENT).append(" */\n");
    if (inline.isPresent()) {
      sb.append(INDENT)
          .append("@IreeFunction(value = ")
          .append(JavaNames.stringLiteral(m.function()))
          .append(", abi = ")
          .append(JavaNames.stringLiteral(inline.get()))
          .append(")\n");
    } else if (m.renamed()) {
      sb.append(INDENT)
          .append("@IreeFunction(")
          .append(JavaNames.stringLiteral(m.function()))
          .append(")\n");
    }
    List<String> parameters = new ArrayList<>();
    m.parameters().forEach(p -> parameters.add(variable(p)));
    appendList(sb, INDENT + m.returnType() + " " + m.name(), parameters, ";");
  }

  private static String variable(Variable v) {
    return v.key().map(k -> "@IreeKey(" + JavaNames.stringLiteral(k) + ") ").orElse("")
        + v.type()
        + " "
        + v.name();
  }

  /** {@code head(a, b)tail} on one line, or one item per line when that is too long. */
  private static void appendList(StringBuilder sb, String head, List<String> items, String tail) {
    String oneLine = head + "(" + String.join(", ", items) + ")" + tail;
    if (oneLine.length() <= WIDTH || items.isEmpty()) {
      sb.append(oneLine).append('\n');
      return;
    }
    sb.append(head).append("(\n");
    for (int i = 0; i < items.size(); i++) {
      sb.append(INDENT).append(INDENT).append(INDENT).append(items.get(i));
      sb.append(i + 1 < items.size() ? ",\n" : ")" + tail + "\n");
    }
  }
}
