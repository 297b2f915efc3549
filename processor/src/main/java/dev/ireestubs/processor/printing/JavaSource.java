package dev.ireestubs.processor.printing;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.Collections;
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
 * code as {@link Code}), and its printing: imports chosen once from every type the file names, then
 * every part printed once by {@link SourcePrinter}, in JavaPoet's layout (two-space indents,
 * members separated by a blank line, static fields, fields, constructors, methods, then nested
 * classes; parameter lists wrapped past column 100) and by JavaPoet's rules for imports, so that a
 * stub reads as before.
 *
 * <p>A type is written by its simple name (imported) unless another type of that simple name was
 * met first, a type of the file's package or a class nested in the file has it, or the file must
 * always qualify it ({@link TypeDecl#alwaysQualify}: the names the interface's nested types
 * shadow); then it is written in full. {@code java.lang} types are not imported.
 */
public final class JavaSource {

  /** A parameter of a method. */
  public record Parameter(TypeName type, String name) {}

  /** An annotation: its type and its members' values, in order (none: a marker annotation). */
  public record Annotation(ClassName type, Map<String, Code> members) {
    public static Annotation marker(ClassName type) {
      return new Annotation(type, Map.of());
    }
  }

  /** A member of a class. */
  public sealed interface Member permits FieldDecl, MethodDecl, TypeDecl {}

  /** A field; {@code initializer} empty for none. */
  public record FieldDecl(
      Code javadoc, Set<Modifier> modifiers, TypeName type, String name, Code initializer)
      implements Member {}

  /** A method, or with a null {@code returns} a constructor. */
  public record MethodDecl(
      Code javadoc,
      List<Annotation> annotations,
      Set<Modifier> modifiers,
      TypeName returns,
      String name,
      List<Parameter> parameters,
      Code body)
      implements Member {}

  /** A class. */
  public record TypeDecl(
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
   * A {@code private static final} nested class with {@code javadoc}, a private constructor and
   * {@code members}.
   */
  public static TypeDecl holder(ClassName name, Code javadoc, List<Member> members) {
    List<Member> all = new ArrayList<>(members.size() + 1);
    all.add(
        new MethodDecl(
            Code.empty(), List.of(), Set.of(Modifier.PRIVATE), null, "", List.of(), Code.empty()));
    all.addAll(members);
    return new TypeDecl(
        name,
        javadoc,
        List.of(),
        Set.of(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL),
        null,
        Collections.unmodifiableList(all),
        Set.of());
  }

  /** The source of the top-level class {@code type}. */
  public static String print(TypeDecl type) {
    String pkg = type.name().packageName();
    Set<String> nested = new HashSet<>();
    nestedNames(type, nested);
    Imports imports = new Imports(pkg, type.name().simpleName(), nested, type.alwaysQualify());
    walk(type, imports);
    SourcePrinter p =
        new SourcePrinter(imports.chosen(), pkg, type.name().simpleName(), nested, 1 << 16);
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
    SourcePrinter p = new SourcePrinter(null, "", "", Set.of(), 64);
    p.code(code);
    return p.finish();
  }

  private static void nestedNames(TypeDecl type, Set<String> out) {
    for (Member m : type.members()) {
      if (m instanceof TypeDecl typeDecl) {
        out.add(typeDecl.name().simpleName());
        nestedNames(typeDecl, out);
      }
    }
  }

  /**
   * The class of the file that {@code simple} names there: a class nested in it (the stub nests one
   * level deep) or the top-level class; null for none. Both passes resolve names by it.
   */
  static ClassName inFile(String simple, String pkg, String topLevel, Set<String> nested) {
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
    for (TypeName type : code.types()) {
      imports.offer(type);
    }
  }

  /** The members in printing order: static fields, fields, constructors, methods, classes. */
  static List<Member> ordered(List<Member> members) {
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
}
