package dev.ireestubs.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An artifact's public API as text, and its comparison with a committed baseline: what later
 * changes are measured against, as Kotlin's binary-compatibility-validator and metalava keep an
 * {@code .api} file per module. {@code japicmp} would need a released jar to compare with, which
 * this project does not have yet.
 *
 * <p>The text lists every type that code outside the artifact can see (public, and nested only in
 * public types), sorted by name, each followed by its public and protected members (constructors,
 * methods, fields, enum constants), sorted; a member is its modifiers, type parameters, types, name
 * and parameters, with generic types as the compiler wrote them. Inherited members are listed where
 * they are declared. A change to any of this (a type or member added, removed, renamed, retyped,
 * made final or sealed) changes the text.
 *
 * <p>{@link #assertMatchesBaseline} fails on a difference, listing the lines removed and added; run
 * the tests with {@code -Dapi.update=true} to rewrite the baseline instead, then review the change
 * in the diff of the baseline file like any other change.
 */
public final class PublicApi {

  private PublicApi() {}

  /**
   * Fails unless the public API of the classes under {@code classes} is the text of {@code
   * baseline}; with {@code -Dapi.update=true}, writes the text to {@code baseline} instead.
   *
   * @param classes a directory of compiled classes (a module's {@code target/classes}), which must
   *     be on the class path of the calling test
   * @param baseline the committed API file
   * @param packages which packages belong to the API (e.g. not the shaded ones)
   * @throws IOException when a file cannot be read or written
   */
  public static void assertMatchesBaseline(Path classes, Path baseline, Predicate<String> packages)
      throws IOException {
    String actual = dump(classes, packages);
    if (Boolean.getBoolean("api.update")) {
      Files.createDirectories(baseline.toAbsolutePath().getParent());
      Files.writeString(baseline, actual, StandardCharsets.UTF_8);
      return;
    }
    if (!Files.isRegularFile(baseline)) {
      throw new AssertionError(
          "no API baseline at " + baseline + "; run the tests with -Dapi.update=true to write it");
    }
    String expected = Files.readString(baseline, StandardCharsets.UTF_8);
    if (!expected.equals(actual)) {
      throw new AssertionError(
          "the public API differs from "
              + baseline
              + " (run the tests with -Dapi.update=true to accept the change, then review the"
              + " baseline's diff):\n"
              + difference(expected, actual));
    }
  }

  /**
   * The public API of the classes under {@code classes}, one line per type and member.
   *
   * @param classes a directory of compiled classes, on the caller's class path
   * @param packages which packages belong to the API
   * @return the text, sorted, ending with a newline
   */
  public static String dump(Path classes, Predicate<String> packages) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    TreeMap<String, List<String>> types = new TreeMap<>();
    for (String name : classNames(classes)) {
      Class<?> type;
      try {
        type = Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new IllegalStateException("cannot load " + name + " from " + classes, e);
      }
      if (!packages.test(type.getPackageName()) || !visible(type)) {
        continue;
      }
      types.put(type.getName(), members(type));
    }
    StringBuilder out = new StringBuilder();
    types.forEach(
        (name, lines) -> {
          lines.forEach(line -> out.append(line).append('\n'));
          out.append('\n');
        });
    return out.toString();
  }

  /** The binary names of the classes under {@code root}. */
  private static List<String> classNames(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".class"))
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.endsWith("module-info.class") && !p.endsWith("package-info.class"))
          .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Public, and nested (if at all) only in public types; not anonymous, local or synthetic. */
  private static boolean visible(Class<?> type) {
    if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
      return false;
    }
    for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
      if (!Modifier.isPublic(t.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  /** The type's line, then its members' lines, indented and sorted. */
  private static List<String> members(Class<?> type) {
    List<String> lines = new ArrayList<>();
    lines.add(header(type));
    List<String> members = new ArrayList<>();
    for (Field f : type.getDeclaredFields()) {
      if (visible(f) && !f.isSynthetic()) {
        members.add(
            f.isEnumConstant()
                ? "enum constant " + f.getName()
                : modifiers(f.getModifiers(), false)
                    + name(f.getGenericType())
                    + " "
                    + f.getName());
      }
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (visible(c) && !c.isSynthetic()) {
        members.add(
            modifiers(c.getModifiers(), false)
                + typeParameters(c.getTypeParameters())
                + "<init>"
                + parameters(c)
                + exceptions(c));
      }
    }
    for (Method m : type.getDeclaredMethods()) {
      if (visible(m) && !m.isSynthetic() && !m.isBridge()) {
        int modifiers = m.getModifiers();
        if (type.isInterface()) {
          modifiers &= ~Modifier.ABSTRACT; // every interface method without a body is abstract
        }
        members.add(
            modifiers(modifiers, m.isDefault())
                + typeParameters(m.getTypeParameters())
                + name(m.getGenericReturnType())
                + " "
                + m.getName()
                + parameters(m)
                + exceptions(m));
      }
    }
    members.stream().sorted().forEach(m -> lines.add("  " + m));
    return lines;
  }

  private static boolean visible(Member member) {
    int m = member.getModifiers();
    return Modifier.isPublic(m) || Modifier.isProtected(m);
  }

  /** {@code public final class a.B<T> extends a.C implements a.D permits ...}. */
  private static String header(Class<?> type) {
    int modifiers = type.getModifiers() & ~Modifier.INTERFACE;
    String kind;
    if (type.isAnnotation()) {
      kind = "@interface";
      modifiers &= ~Modifier.ABSTRACT;
    } else if (type.isInterface()) {
      kind = "interface";
      modifiers &= ~Modifier.ABSTRACT;
    } else if (type.isEnum()) {
      kind = "enum";
      modifiers &= ~(Modifier.FINAL | Modifier.ABSTRACT);
    } else if (type.isRecord()) {
      kind = "record";
      modifiers &= ~Modifier.FINAL;
    } else {
      kind = "class";
    }
    StringBuilder s = new StringBuilder(modifiers(modifiers, false));
    if (type.isSealed()) {
      s.append("sealed ");
    }
    s.append(kind)
        .append(' ')
        .append(type.getName())
        .append(typeParameterList(type.getTypeParameters()));
    Type superclass = type.getGenericSuperclass();
    if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
      s.append(" extends ").append(name(superclass));
    }
    Type[] interfaces = type.getGenericInterfaces();
    if (interfaces.length > 0) {
      s.append(type.isInterface() ? " extends " : " implements ")
          .append(Arrays.stream(interfaces).map(PublicApi::name).collect(Collectors.joining(", ")));
    }
    if (type.isSealed()) {
      s.append(" permits ")
          .append(
              Arrays.stream(type.getPermittedSubclasses())
                  .map(Class::getName)
                  .sorted()
                  .collect(Collectors.joining(", ")));
    }
    return s.toString();
  }

  /** The Java modifiers in the order the language gives them, each followed by a space. */
  private static String modifiers(int modifiers, boolean isDefault) {
    String text =
        Modifier.toString(
            modifiers
                & ~(Modifier.SYNCHRONIZED
                    | Modifier.NATIVE
                    | Modifier.TRANSIENT
                    | Modifier.VOLATILE
                    | Modifier.STRICT));
    if (isDefault) {
      text = text.isEmpty() ? "default" : text + " default";
    }
    return text.isEmpty() ? "" : text + " ";
  }

  private static String typeParameters(TypeVariable<?>[] variables) {
    String list = typeParameterList(variables);
    return list.isEmpty() ? "" : list + " ";
  }

  private static String typeParameterList(TypeVariable<?>[] variables) {
    if (variables.length == 0) {
      return "";
    }
    List<String> each = new ArrayList<>();
    for (TypeVariable<?> v : variables) {
      Set<String> bounds = new LinkedHashSet<>();
      for (Type b : v.getBounds()) {
        if (b != Object.class) {
          bounds.add(name(b));
        }
      }
      each.add(v.getName() + (bounds.isEmpty() ? "" : " extends " + String.join(" & ", bounds)));
    }
    return "<" + String.join(", ", each) + ">";
  }

  private static String parameters(Executable e) {
    Type[] types = e.getGenericParameterTypes();
    if (types.length != e.getParameterCount()) {
      types = e.getParameterTypes(); // an inner class's or enum's synthetic parameters
    }
    List<String> each = new ArrayList<>();
    for (int i = 0; i < types.length; i++) {
      String name = name(types[i]);
      if (e.isVarArgs() && i == types.length - 1 && name.endsWith("[]")) {
        name = name.substring(0, name.length() - 2) + "...";
      }
      each.add(name);
    }
    return "(" + String.join(", ", each) + ")";
  }

  private static String exceptions(Executable e) {
    Type[] thrown = e.getGenericExceptionTypes();
    if (thrown.length == 0) {
      return "";
    }
    return " throws "
        + Arrays.stream(thrown).map(PublicApi::name).sorted().collect(Collectors.joining(", "));
  }

  private static String name(Type type) {
    return type.getTypeName();
  }

  /**
   * The lines of {@code expected} missing from {@code actual} (-) and the new ones (+), each member
   * qualified by its type (a member line alone may appear in many types).
   */
  private static String difference(String expected, String actual) {
    Set<String> before = qualified(expected);
    Set<String> after = qualified(actual);
    StringBuilder s = new StringBuilder();
    before.stream()
        .filter(l -> !after.contains(l))
        .forEach(l -> s.append("- ").append(l).append('\n'));
    after.stream()
        .filter(l -> !before.contains(l))
        .forEach(l -> s.append("+ ").append(l).append('\n'));
    return s.length() == 0 ? "(the same lines in another order)" : s.toString();
  }

  /** Every line of an API text, members prefixed by the header of their type. */
  private static Set<String> qualified(String text) {
    Set<String> lines = new LinkedHashSet<>();
    String type = "";
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("  ")) {
        lines.add(type + " :: " + line.strip());
      } else {
        type = line;
        lines.add(line);
      }
    }
    return lines;
  }
}
