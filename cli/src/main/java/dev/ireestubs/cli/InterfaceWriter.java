package dev.ireestubs.cli;

import dev.ireestubs.cli.InterfaceSuggestion.Method;
import dev.ireestubs.cli.InterfaceSuggestion.Omitted;
import dev.ireestubs.cli.InterfaceSuggestion.RecordType;
import dev.ireestubs.cli.InterfaceSuggestion.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prints an {@link InterfaceSuggestion} as Java source: imports, then the annotated interface with
 * each method's records before it and the omitted exports as comments at the end. Makes no
 * decisions: every name and type is in the suggestion.
 */
final class InterfaceWriter {

  /** Lines longer than this put one parameter or component per line. */
  private static final int WIDTH = 100;

  private static final String INDENT = "  ";

  private InterfaceWriter() {}

  /** The source text of a compilation unit in the unnamed package. */
  static String write(InterfaceSuggestion s) {
    return write(s, Map.of());
  }

  /**
   * As {@link #write(InterfaceSuggestion)}, but each method whose export is a key of {@code
   * inlineReflection} carries that reflection text in {@code @IreeFunction(abi = ...)} and the
   * module names no {@code vmfb}: for checking the suggestion with the processor without a {@code
   * .vmfb}.
   */
  static String write(InterfaceSuggestion s, Map<String, String> inlineReflection) {
    StringBuilder sb = new StringBuilder();
    List<String> imports = new ArrayList<>(s.imports());
    String ireeFunction = InterfaceSuggester.ANNOTATIONS + "IreeFunction";
    if (!inlineReflection.isEmpty() && !imports.contains(ireeFunction)) {
      imports.add(ireeFunction);
      imports.sort(null);
    }
    for (String i : imports) {
      sb.append("import ").append(i).append(";\n");
    }
    sb.append('\n');
    for (String note : s.notes()) {
      sb.append("// ").append(JavaNames.commentText(note)).append('\n');
    }
    sb.append("@IreeModule(name = ")
        .append(JavaNames.stringLiteral(s.moduleName()));
    if (inlineReflection.isEmpty()) {
      sb.append(", vmfb = ").append(JavaNames.stringLiteral(s.vmfb()));
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

  private static void writeRecord(StringBuilder sb, RecordType r) {
    List<String> components = new ArrayList<>();
    r.components().forEach(c -> components.add(variable(c)));
    appendList(sb, INDENT + "record " + r.name(), components, " {}");
  }

  private static void writeMethod(StringBuilder sb, Method m, Optional<String> inline) {
    for (String c : m.comments()) {
      sb.append(INDENT).append("// ").append(JavaNames.commentText(c)).append('\n');
    }
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
