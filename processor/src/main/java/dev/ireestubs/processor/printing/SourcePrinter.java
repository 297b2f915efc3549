package dev.ireestubs.processor.printing;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeVariableName;
import com.palantir.javapoet.WildcardTypeName;
import dev.ireestubs.processor.printing.JavaSource.Annotation;
import dev.ireestubs.processor.printing.JavaSource.FieldDecl;
import dev.ireestubs.processor.printing.JavaSource.Member;
import dev.ireestubs.processor.printing.JavaSource.MethodDecl;
import dev.ireestubs.processor.printing.JavaSource.Parameter;
import dev.ireestubs.processor.printing.JavaSource.TypeDecl;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Prints a {@link JavaSource} class, or one {@link Code} fragment, as JavaPoet's code writer and
 * line wrapper would: two-space indents, statements whose lines after the first are indented two
 * more levels, Javadoc lines prefixed, parameter lists wrapped past column 100, each class name
 * written as the imports {@link JavaSource} chose allow.
 */
final class SourcePrinter {

  private static final int COLUMN_LIMIT = 100;
  private static final String INDENT = "  ";

  private final StringBuilder out;

  /** Imported top-level types by simple name; null: write every type in full. */
  private final Map<String, ClassName> imports;

  private final Set<String> nested;
  private final String topLevel;
  private final String pkg;
  private int indentLevel;
  private int statementLine = -1;
  private boolean javadoc;
  private boolean trailingNewline;

  /** The line wrapper's state: text after a pending wrapping point, and that point's kind. */
  private final StringBuilder pending = new StringBuilder();

  private int column;
  private int wrapIndent = -1;

  /** The pending wrapping point, if any: what it prints where the line does not break there. */
  private Gap gap;

  /** What a wrapping point prints when the line goes on: a space, or nothing (after a "("). */
  private enum Gap {
    SPACE,
    NOTHING
  }

  /** How each class is written, by canonical name. */
  private final Map<String, String> names = new HashMap<>();

  /**
   * @param imports the imported top-level types by simple name; null: write every type in full
   * @param pkg the file's package
   * @param topLevel the simple name of the file's class
   * @param nested the simple names of the classes nested in it
   * @param capacity the initial size of the text
   */
  SourcePrinter(
      Map<String, ClassName> imports,
      String pkg,
      String topLevel,
      Set<String> nested,
      int capacity) {
    this.out = new StringBuilder(capacity);
    this.imports = imports;
    this.pkg = pkg;
    this.topLevel = topLevel;
    this.nested = nested;
  }

  String finish() {
    if (gap != null) {
      flush(false);
    }
    return out.toString();
  }

  void type(TypeDecl t) {
    int previousStatement = statementLine;
    statementLine = -1;
    javadoc(t.javadoc());
    annotations(t.annotations());
    modifiers(t.modifiers());
    text("class " + t.name().simpleName());
    if (t.superinterface() != null) {
      text(" implements ");
      type(t.superinterface());
    }
    text(" {\n");
    indentLevel++;
    boolean first = true;
    for (Member m : JavaSource.ordered(t.members())) {
      if (!first) {
        text("\n");
      }
      first = false;
      if (m instanceof FieldDecl f) {
        field(f);
      } else if (m instanceof MethodDecl md) {
        method(md, t.name().simpleName());
      } else {
        type((TypeDecl) m);
      }
    }
    indentLevel--;
    text("}\n");
    statementLine = previousStatement;
  }

  private void field(FieldDecl f) {
    javadoc(f.javadoc());
    modifiers(f.modifiers());
    type(f.type());
    text(" " + f.name());
    if (!f.initializer().isEmpty()) {
      text(" = ");
      code(f.initializer());
    }
    text(";\n");
  }

  private void method(MethodDecl m, String enclosing) {
    javadoc(m.javadoc());
    annotations(m.annotations());
    modifiers(m.modifiers());
    if (m.returns() == null) {
      text(enclosing);
    } else {
      type(m.returns());
      text(" " + m.name());
    }
    text("(");
    wrappingPoint(Gap.NOTHING);
    boolean first = true;
    for (Parameter p : m.parameters()) {
      if (!first) {
        text(",");
        wrappingPoint(Gap.SPACE);
      }
      first = false;
      type(p.type());
      text(" " + p.name());
    }
    text(")");
    text(" {\n");
    indentLevel++;
    code(m.body());
    if (lastChar() != '\n') {
      text("\n");
    }
    indentLevel--;
    text("}\n");
  }

  private void javadoc(Code doc) {
    if (doc.isEmpty()) {
      return;
    }
    text("/**\n");
    javadoc = true;
    code(doc);
    if (lastChar() != '\n') {
      text("\n");
    }
    javadoc = false;
    text(" */\n");
  }

  private void annotations(List<Annotation> annotations) {
    for (Annotation a : annotations) {
      text("@");
      type(a.type());
      if (a.members().size() == 1 && a.members().containsKey("value")) {
        text("(");
        annotationValue(a.members().get("value"));
        text(")");
      } else if (!a.members().isEmpty()) {
        text("(\n");
        indentLevel += 2;
        int i = 0;
        for (Map.Entry<String, Code> e : a.members().entrySet()) {
          text(e.getKey() + " = ");
          annotationValue(e.getValue());
          if (++i < a.members().size()) {
            text(",\n");
          }
        }
        indentLevel -= 2;
        text("\n)");
      }
      text("\n");
    }
  }

  /** A member's value: its lines after the first two more levels in, as JavaPoet's. */
  private void annotationValue(Code value) {
    indentLevel += 2;
    code(value);
    indentLevel -= 2;
  }

  private void modifiers(Set<Modifier> modifiers) {
    if (modifiers.isEmpty()) {
      return;
    }
    for (Modifier m : EnumSet.copyOf(modifiers)) {
      text(m.toString());
      text(" ");
    }
  }

  void code(Code code) {
    for (Object part : code.parts()) {
      if (part instanceof String string) {
        text(string);
      } else if (part instanceof TypeName typeName) {
        type(typeName);
      } else if (part instanceof Code.Literal literal) {
        String value = literal.value();
        text(value == null ? "null" : stringLiteral(value));
      } else {
        marker((Code.Marker) part);
      }
    }
  }

  private void marker(Code.Marker m) {
    switch (m) {
      case INDENT -> indentLevel++;
      case UNINDENT -> indentLevel--;
      case STATEMENT -> statementLine = 0;
      case STATEMENT_END -> {
        if (statementLine > 0) {
          indentLevel -= 2;
        }
        statementLine = -1;
      }
    }
  }

  private void type(TypeName t) {
    if (t instanceof ClassName c) {
      text(name(c));
    } else if (t instanceof ParameterizedTypeName p) {
      if (p.enclosingType() != null) {
        type(p.enclosingType());
        text("." + p.rawType().simpleName());
      } else {
        text(name(p.rawType()));
      }
      if (!p.typeArguments().isEmpty()) {
        text("<");
        for (int i = 0; i < p.typeArguments().size(); i++) {
          if (i > 0) {
            text(", ");
          }
          type(p.typeArguments().get(i));
        }
        text(">");
      }
    } else if (t instanceof ArrayTypeName a) {
      type(a.componentType());
      text("[]");
    } else if (t instanceof WildcardTypeName w) {
      if (w.lowerBounds().size() == 1) {
        text("? super ");
        type(w.lowerBounds().get(0));
      } else if (w.upperBounds().get(0).equals(ClassName.OBJECT)) {
        text("?");
      } else {
        text("? extends ");
        type(w.upperBounds().get(0));
      }
    } else if (t instanceof TypeVariableName v) {
      text(v.name());
    } else {
      text(t.toString()); // primitives and void
    }
  }

  /** How {@code c} is written here (the same everywhere in the file: it nests one level). */
  private String name(ClassName c) {
    if (imports == null) {
      return c.canonicalName();
    }
    String name = names.get(c.canonicalName());
    if (name == null) {
      name = lookup(c);
      names.put(c.canonicalName(), name);
    }
    return name;
  }

  /** JavaPoet's lookup of a class name, with the imports chosen. */
  private String lookup(ClassName c) {
    boolean resolved = false;
    for (ClassName e = c; e != null; e = e.enclosingClassName()) {
      ClassName found = resolve(e.simpleName());
      resolved = found != null;
      if (found != null && found.canonicalName().equals(e.canonicalName())) {
        List<String> names = c.simpleNames();
        int from = e.simpleNames().size() - 1;
        return from == 0 && names.size() == 1
            ? names.get(0)
            : String.join(".", names.subList(from, names.size()));
      }
    }
    if (resolved) {
      return c.canonicalName();
    }
    if (c.packageName().equals(pkg)) {
      return String.join(".", c.simpleNames());
    }
    return c.canonicalName();
  }

  private ClassName resolve(String simple) {
    ClassName found = JavaSource.inFile(simple, pkg, topLevel, nested);
    return found != null ? found : imports.get(simple);
  }

  // ---- text, lines and wrapping, as JavaPoet's code writer and line wrapper

  /** Appends {@code s}, indenting each new line (and prefixing it in Javadoc). */
  void text(String s) {
    int from = 0;
    boolean first = true;
    while (true) {
      int nl = s.indexOf('\n', from);
      String line = nl < 0 ? s.substring(from) : s.substring(from, nl);
      if (!first) {
        if (javadoc && trailingNewline) {
          indentation();
          append(" *");
        }
        append("\n");
        trailingNewline = true;
        if (statementLine != -1) {
          if (statementLine == 0) {
            indentLevel += 2;
          }
          statementLine++;
        }
      }
      first = false;
      if (!line.isEmpty()) {
        if (trailingNewline) {
          indentation();
          if (javadoc) {
            append(" * ");
          }
        }
        append(line);
        trailingNewline = false;
      }
      if (nl < 0) {
        return;
      }
      from = nl + 1;
    }
  }

  private void indentation() {
    for (int j = 0; j < indentLevel; j++) {
      append(INDENT);
    }
  }

  private char lastChar() {
    if (pending.length() > 0) {
      return pending.charAt(pending.length() - 1);
    }
    return out.length() == 0 ? '\0' : out.charAt(out.length() - 1);
  }

  /** A point where a long line may break; {@code kind} is what it prints where it does not. */
  private void wrappingPoint(Gap kind) {
    if (kind == Gap.NOTHING && column == 0) {
      return;
    }
    if (gap != null) {
      flush(false);
    }
    if (kind == Gap.SPACE) {
      column++;
    }
    gap = kind;
    wrapIndent = indentLevel + 2;
  }

  private void append(String s) {
    if (gap != null) {
      int nl = s.indexOf('\n');
      if (nl == -1 && column + s.length() <= COLUMN_LIMIT) {
        pending.append(s);
        column += s.length();
        return;
      }
      flush(nl == -1 || column + nl > COLUMN_LIMIT);
    }
    out.append(s);
    int last = s.lastIndexOf('\n');
    column = last != -1 ? s.length() - last - 1 : column + s.length();
  }

  private void flush(boolean wrap) {
    if (wrap) {
      out.append('\n');
      for (int i = 0; i < wrapIndent; i++) {
        out.append(INDENT);
      }
      column = wrapIndent * INDENT.length() + pending.length();
    } else if (gap == Gap.SPACE) {
      out.append(' ');
    }
    out.append(pending);
    pending.setLength(0);
    wrapIndent = -1;
    gap = null;
  }

  /**
   * {@code value} as a Java string literal, in JavaPoet's form (a line break ends a line of it).
   */
  private static String stringLiteral(String value) {
    StringBuilder result = new StringBuilder(value.length() + 2);
    result.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\'' -> result.append('\'');
        case '"' -> result.append("\\\"");
        case '\b' -> result.append("\\b");
        case '\t' -> result.append("\\t");
        case '\n' -> result.append("\\n");
        case '\f' -> result.append("\\f");
        case '\r' -> result.append("\\r");
        case '\\' -> result.append("\\\\");
        default -> {
          if (Character.isISOControl(c)) {
            result.append(String.format("\\u%04x", (int) c));
          } else {
            result.append(c);
          }
        }
      }
      if (c == '\n' && i + 1 < value.length()) {
        result.append("\"\n").append(INDENT).append(INDENT).append("+ \"");
      }
    }
    return result.append('"').toString();
  }
}
