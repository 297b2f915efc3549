package dev.ireestubs.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeVariableName;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.element.Modifier;

/**
 * One generated source file as plain values (a class, its fields, methods and nested classes, their
 * code as {@link Code}), and its printing: imports chosen once from every type the file names,
 * then every part printed once, in JavaPoet's layout (two-space indents, members separated by a
 * blank line, static fields, fields, constructors, methods, then nested classes; parameter lists
 * wrapped past column 100) and by JavaPoet's rules for imports, so that a stub reads as before.
 *
 * <p>A type is written by its simple name (imported) unless another type of that simple name was
 * met first, a type of the file's package or a class nested in the file has it, or the file must
 * always qualify it ({@link TypeDecl#alwaysQualify}: the names the interface's nested types
 * shadow); then it is written in full. {@code java.lang} types are not imported.
 */
final class JavaSource {

  private static final int COLUMN_LIMIT = 100;
  private static final String INDENT = "  ";

  /** A parameter of a method. */
  record Parameter(TypeName type, String name) {}

  /** An annotation: its type and its members' values, in order (none: a marker annotation). */
  record Annotation(ClassName type, Map<String, Code> members) {
    static Annotation marker(ClassName type) {
      return new Annotation(type, Map.of());
    }
  }

  /** A member of a class. */
  sealed interface Member permits FieldDecl, MethodDecl, TypeDecl {}

  /** A field; {@code initializer} empty for none. */
  record FieldDecl(Code javadoc, Set<Modifier> modifiers, TypeName type, String name, Code initializer)
      implements Member {}

  /** A method, or with a null {@code returns} a constructor. */
  record MethodDecl(
      Code javadoc,
      List<Annotation> annotations,
      Set<Modifier> modifiers,
      TypeName returns,
      String name,
      List<Parameter> parameters,
      Code body)
      implements Member {}

  /** A class. */
  record TypeDecl(
      ClassName name,
      Code javadoc,
      List<Annotation> annotations,
      Set<Modifier> modifiers,
      TypeName superinterface,
      List<Member> members,
      Set<String> alwaysQualify)
      implements Member {}

  private JavaSource() {}

  /**
   * A {@code private static final} nested class with a private constructor and {@code javadoc},
   * its member list open for the caller to fill.
   */
  static TypeDecl holder(ClassName name, Code javadoc) {
    List<Member> members = new ArrayList<>();
    members.add(
        new MethodDecl(
            Code.of(""), List.of(), Set.of(Modifier.PRIVATE), null, "", List.of(), Code.of("")));
    return new TypeDecl(
        name,
        javadoc,
        List.of(),
        Set.of(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL),
        null,
        members,
        Set.of());
  }

  /** The source of the top-level class {@code type}. */
  static String print(TypeDecl type) {
    String pkg = type.name().packageName();
    Set<String> nested = new HashSet<>();
    nestedNames(type, nested);
    Imports imports = new Imports(pkg, type.name().simpleName(), nested, type.alwaysQualify());
    walk(type, imports);
    Printer p = new Printer(imports.chosen(), 1 << 16);
    p.nested = nested;
    p.topLevel = type.name().simpleName();
    p.pkg = pkg;
    if (!pkg.isEmpty()) {
      p.text("package " + pkg + ";\n\n");
    }
    int count = 0;
    for (ClassName c : new TreeSet<>(imports.chosen().values())) {
      if (!c.packageName().equals("java.lang")) {
        p.text("import " + c.canonicalName() + ";\n");
        count++;
      }
    }
    if (count > 0) {
      p.text("\n");
    }
    p.type(type);
    return p.finish();
  }

  /** {@code code} with every type written in full (no imports). */
  static String qualified(Code code) {
    Printer p = new Printer(null, 64); // mostly a name or a call: ValueCode asks for many
    p.code(code);
    return p.finish();
  }

  private static void nestedNames(TypeDecl type, Set<String> out) {
    for (Member m : type.members()) {
      if (m instanceof TypeDecl) {
        out.add(((TypeDecl) m).name().simpleName());
        nestedNames((TypeDecl) m, out);
      }
    }
  }

  /**
   * The class of the file that {@code simple} names there: a class nested in it (the stub nests
   * one level deep) or the top-level class; null for none. Both passes resolve names by it.
   */
  private static ClassName inFile(String simple, String pkg, String topLevel, Set<String> nested) {
    if (nested.contains(simple)) {
      return ClassName.get(pkg, topLevel, simple);
    }
    return simple.equals(topLevel) ? ClassName.get(pkg, simple) : null;
  }

  // ---- the first pass: every type named, in printing order, offered for import

  private static void walk(TypeDecl t, Imports imports) {
    walk(t.javadoc(), imports);
    t.annotations().forEach(a -> walk(a, imports));
    imports.offer(t.superinterface());
    for (Member m : ordered(t.members())) {
      if (m instanceof FieldDecl f) {
        walk(f.javadoc(), imports);
        imports.offer(f.type());
        walk(f.initializer(), imports);
      } else if (m instanceof MethodDecl md) {
        walk(md.javadoc(), imports);
        md.annotations().forEach(a -> walk(a, imports));
        imports.offer(md.returns());
        md.parameters().forEach(p -> imports.offer(p.type()));
        walk(md.body(), imports);
      } else {
        walk((TypeDecl) m, imports);
      }
    }
  }

  private static void walk(Annotation a, Imports imports) {
    imports.offer(a.type());
    a.members().values().forEach(v -> walk(v, imports));
  }

  private static void walk(Code code, Imports imports) {
    for (Object part : code.parts()) {
      if (part instanceof TypeName) {
        imports.offer((TypeName) part);
      }
    }
  }

  /** The members in printing order: static fields, fields, constructors, methods, classes. */
  private static List<Member> ordered(List<Member> members) {
    List<Member> out = new ArrayList<>(members.size());
    for (int pass = 0; pass < 5; pass++) {
      for (Member m : members) {
        if (rank(m) == pass) {
          out.add(m);
        }
      }
    }
    return out;
  }

  private static int rank(Member m) {
    if (m instanceof FieldDecl f) {
      return f.modifiers().contains(Modifier.STATIC) ? 0 : 1;
    }
    if (m instanceof MethodDecl md) {
      return md.returns() == null ? 2 : 3;
    }
    return 4;
  }

  /** Which top-level types are imported, by simple name (JavaPoet's first pass). */
  private static final class Imports {
    private final String pkg;
    private final String topLevel;
    private final Set<String> nested;
    private final Set<String> alwaysQualify;
    private final Map<String, ClassName> importable = new LinkedHashMap<>();
    private final Set<String> samePackage = new HashSet<>();
    private final Set<String> offered = new HashSet<>();

    Imports(String pkg, String topLevel, Set<String> nested, Set<String> alwaysQualify) {
      this.pkg = pkg;
      this.topLevel = topLevel;
      this.nested = nested;
      this.alwaysQualify = alwaysQualify;
    }

    void offer(TypeName t) {
      if (t instanceof ClassName c) {
        offer(c);
      } else if (t instanceof ParameterizedTypeName p) {
        if (p.enclosingType() != null) {
          offer(p.enclosingType());
        } else {
          offer(p.rawType());
        }
        p.typeArguments().forEach(this::offer);
      } else if (t instanceof ArrayTypeName a) {
        offer(a.componentType());
      } else if (t instanceof WildcardTypeName w) {
        w.lowerBounds().forEach(this::offer);
        w.upperBounds().forEach(this::offer);
      }
    }

    private void offer(ClassName c) {
      if (!offered.add(c.canonicalName())) {
        return; // decided at its first use
      }
      // As JavaPoet's lookup: a name that resolves inside the file is written from there (or in
      // full, when what it resolves to is another type); only the outermost class decides that.
      boolean resolved = false;
      for (ClassName e = c; e != null; e = e.enclosingClassName()) {
        ClassName found = inFile(e.simpleName(), pkg, topLevel, nested);
        resolved = found != null;
        if (resolved && found.canonicalName().equals(e.canonicalName())) {
          return;
        }
      }
      if (resolved) {
        return;
      }
      ClassName top = c.topLevelClassName();
      if (c.packageName().equals(pkg)) {
        samePackage.add(top.simpleName());
        return;
      }
      if (c.packageName().isEmpty() || alwaysQualify.contains(c.simpleName())) {
        return;
      }
      importable.putIfAbsent(top.simpleName(), top);
    }

    Map<String, ClassName> chosen() {
      Map<String, ClassName> out = new HashMap<>(importable);
      out.keySet().removeAll(samePackage);
      return out;
    }
  }

  // ---- the second pass: printing

  /** Prints parts as JavaPoet's code writer and line wrapper would. */
  private static final class Printer {
    private final StringBuilder out;
    /** Imported top-level types by simple name; null: write every type in full. */
    private final Map<String, ClassName> imports;
    private Set<String> nested = Set.of();
    private String topLevel = "";
    private String pkg = "";
    private int indentLevel;
    private int statementLine = -1;
    private boolean javadoc;
    private boolean trailingNewline;
    /** The line wrapper's state: text after a pending wrapping point, and that point's kind. */
    private final StringBuilder pending = new StringBuilder();
    private int column;
    private int wrapIndent = -1;
    private Character pendingSpace; // ' ' a space, '\0' nothing, null no wrapping point
    /** How each class is written, by canonical name. */
    private final Map<String, String> names = new HashMap<>();

    Printer(Map<String, ClassName> imports, int capacity) {
      this.out = new StringBuilder(capacity);
      this.imports = imports;
    }

    String finish() {
      if (pendingSpace != null) {
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
      for (Member m : ordered(t.members())) {
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
      wrappingPoint('\0');
      boolean first = true;
      for (Parameter p : m.parameters()) {
        if (!first) {
          text(",");
          wrappingPoint(' ');
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
        if (part instanceof String) {
          text((String) part);
        } else if (part instanceof TypeName) {
          type((TypeName) part);
        } else if (part instanceof Code.Literal) {
          String value = ((Code.Literal) part).value();
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
      return names.computeIfAbsent(c.canonicalName(), k -> lookup(c));
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
          return from == 0 && names.size() == 1 ? names.get(0) : String.join(".", names.subList(from, names.size()));
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
      ClassName found = inFile(simple, pkg, topLevel, nested);
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

    /** A point where a long line may break ({@code ' '}: a space otherwise, {@code '\0'}: none). */
    private void wrappingPoint(char space) {
      if (space == '\0' && column == 0) {
        return;
      }
      if (pendingSpace != null) {
        flush(false);
      }
      if (space == ' ') {
        column++;
      }
      pendingSpace = space;
      wrapIndent = indentLevel + 2;
    }

    private void append(String s) {
      if (pendingSpace != null) {
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
      } else if (pendingSpace == ' ') {
        out.append(' ');
      }
      out.append(pending);
      pending.setLength(0);
      wrapIndent = -1;
      pendingSpace = null;
    }
  }

  /** {@code value} as a Java string literal, in JavaPoet's form (a line break ends a line of it). */
  static String stringLiteral(String value) {
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
