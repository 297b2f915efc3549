package dev.ireestubs.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the project's Markdown pages point at, checked against the checkout: every relative link
 * reaches a file (and its {@code #anchor} a heading of that page), and every class, member,
 * property and environment variable a page names in {@code code} spans exists in the code. A page
 * that names a method its class does not have, or links to a heading that was renamed, fails the
 * docs tests instead of a reader.
 *
 * <p>Names are read from {@code code} spans outside fenced blocks (the blocks themselves are
 * compiled by the docs tests). A span {@code Type.member(...)} or {@code Type.member} whose type is
 * one of the project's classes must name a member declared in that class's source or in a project
 * supertype's; a type the project does not have must be a JDK class with that member, or listed in
 * {@link #EXTERNAL_NAMES}. A lower-case receiver is read by the pages' naming convention ({@link
 * #RECEIVERS}: {@code session} is an {@code IreeSession}, and so on). A {@code -Dname} or {@code
 * -Aname} must appear in the sources, a POM or a script; so must an {@code IREE_…} or {@code XDG_…}
 * variable.
 */
public final class DocReferences {

  /** A problem found on a page: where, and what is wrong. */
  public record Finding(String page, int line, String message) {
    @Override
    public String toString() {
      return page + ":" + line + ": " + message;
    }
  }

  /** How the pages name a value of one of the project's types. */
  public static final Map<String, String> RECEIVERS =
      Map.of(
          "session", "IreeSession",
          "pool", "IreeSessionPool",
          "runtime", "IreeRuntime",
          "library", "IreeLibrary",
          "backend", "ModuleBackend");

  /**
   * Names in two humps that are not the project's or the JDK's classes: other projects' types (with
   * no member checked), a JVM flag, a model.
   */
  public static final Set<String> EXTERNAL_NAMES =
      Set.of(
          "SparkEnv",
          "SparkFiles",
          "OrtSession",
          "OnnxTensor",
          "MeterRegistry",
          "MeterBinder",
          "SparkContext",
          "JavaModuleOptions",
          "InlineSmallCode",
          "MobileNet",
          // JDK 19+ classes, which JDK 17 (where the docs tests also run) does not have
          "WrongThreadException",
          "MemorySegment",
          "Arena",
          "Linker",
          "SymbolLookup");

  private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```");
  private static final Pattern SPAN = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern LINK = Pattern.compile("(?<!!)\\[([^\\]\\n]*)\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
  private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");
  private static final Pattern MEMBER_REF =
      Pattern.compile("^([A-Za-z_][\\w$]*)[.#]([a-z_][\\w$]*)(\\(.*\\))?;?$");
  private static final Pattern PROPERTY = Pattern.compile("^-([DA])([\\w.-]+?)(=.*)?$");
  private static final Pattern VARIABLE =
      Pattern.compile("^\\$?\\{?((?:IREE|XDG)_[A-Z0-9_]+)\\}?(=.*)?$");

  /**
   * A name in two humps or more, as classes are named: {@code IreeSession}, {@code ParseLimits}.
   */
  private static final Pattern TYPE_NAME = Pattern.compile("^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$");

  private static final Set<String> OBJECT_MEMBERS =
      Set.of("close", "equals", "hashCode", "toString", "getClass", "values", "valueOf");
  private static final List<String> JDK_PACKAGES =
      List.of(
          "java.lang.",
          "java.util.",
          "java.util.concurrent.",
          "java.util.function.",
          "java.nio.",
          "java.nio.file.",
          "java.time.",
          "java.lang.invoke.",
          "java.lang.foreign.",
          "java.io.",
          "sun.misc.");

  private final Path root;
  private final Map<String, List<String>> sourcesByType = new HashMap<>();

  /** Test classes the pages name (a test that shows a promise), by simple name. */
  private final Map<String, List<String>> testSources = new HashMap<>();

  private final String everything;

  private DocReferences(Path root) {
    this.root = root;
    StringBuilder all = new StringBuilder();
    for (Path source : files(root, DocReferences::indexed)) {
      String text = read(source);
      all.append(text).append('\n');
      Matcher m =
          Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z]\\w*)").matcher(text);
      while (m.find()) {
        if (source.toString().contains("/src/main/")) {
          sourcesByType.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(text);
        } else {
          testSources.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(text);
        }
      }
    }
    // The API baselines list the public types with their members, the generated ones too.
    for (Path api : files(root, p -> p.toString().endsWith(".api"))) {
      for (String block : read(api).split("\n\\s*\n")) {
        Matcher m =
            Pattern.compile("^\\S.*?\\b(?:class|interface|record|enum)\\s+(?:\\w+\\.)*(\\w+)")
                .matcher(block.replace('$', '.'));
        if (m.find()) {
          sourcesByType.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(block);
        }
      }
    }
    for (Path other :
        files(
            root,
            p -> {
              String name = p.getFileName().toString();
              return name.equals("pom.xml") || name.endsWith(".sh") || name.equals("run");
            })) {
      all.append(read(other)).append('\n');
    }
    this.everything = all.toString();
  }

  /** Java sources, except the docs checks' own (whose planted names must stay unknown). */
  private static boolean indexed(Path p) {
    String name = p.getFileName().toString();
    return name.endsWith(".java")
        && !name.equals("DocsReferencesTest.java")
        && !name.equals("DocReferences.java");
  }

  /** The checker for the checkout at {@link DocBlocks#root()}. */
  public static DocReferences forCheckout() {
    return new DocReferences(DocBlocks.root());
  }

  /** Every Markdown page of the checkout outside build output, relative to the root. */
  public List<String> pages() {
    return files(root, p -> p.toString().endsWith(".md")).stream()
        .map(p -> root.relativize(p).toString())
        .sorted()
        .collect(Collectors.toList());
  }

  /** Links that reach no file, no heading, their own page, or outside the checkout. */
  public List<Finding> brokenLinks(String page) {
    return brokenLinks(page, read(root.resolve(page)));
  }

  /** The same for a page's text given here (a test plants a broken link in a real page's text). */
  public List<Finding> brokenLinks(String page, String pageText) {
    List<Finding> findings = new ArrayList<>();
    String text = withoutFences(pageText);
    Matcher m = LINK.matcher(text);
    while (m.find()) {
      String target = m.group(2);
      if (target.matches("^[a-z]+:.*")) {
        continue;
      }
      int line = lineOf(text, m.start());
      int hash = target.indexOf('#');
      String file = hash < 0 ? target : target.substring(0, hash);
      String anchor = hash < 0 ? null : target.substring(hash + 1);
      Path from = root.resolve(page).getParent();
      Path resolved = file.isEmpty() ? root.resolve(page) : from.resolve(file).normalize();
      if (!resolved.startsWith(root)) {
        findings.add(new Finding(page, line, "link to " + target + " leaves the project"));
        continue;
      }
      if (!Files.exists(resolved)) {
        findings.add(new Finding(page, line, "link to " + target + ": no such file"));
        continue;
      }
      if (anchor == null && resolved.equals(root.resolve(page))) {
        findings.add(new Finding(page, line, "link \"" + m.group(1) + "\" points at its own page"));
      }
      if (anchor != null && !anchors(resolved).contains(anchor)) {
        findings.add(
            new Finding(
                page,
                line,
                "link to "
                    + target
                    + ": "
                    + root.relativize(resolved)
                    + " has no heading #"
                    + anchor));
      }
    }
    return findings;
  }

  /** Names in code spans that the code does not have. */
  public List<Finding> unknownNames(String page) {
    return unknownNames(page, read(root.resolve(page)));
  }

  /** The same for a page's text given here. */
  public List<Finding> unknownNames(String page, String pageText) {
    List<Finding> findings = new ArrayList<>();
    String text = withoutFences(pageText);
    Matcher m = SPAN.matcher(text);
    while (m.find()) {
      String span = m.group(1).trim();
      String problem = check(span);
      if (problem != null) {
        findings.add(new Finding(page, lineOf(text, m.start()), "`" + span + "`: " + problem));
      }
    }
    return findings;
  }

  /** Why a code span names nothing that exists, or null. */
  public String check(String span) {
    if (span.endsWith(".java") || span.endsWith(".md")) {
      return null; // a file's name
    }
    Matcher member = MEMBER_REF.matcher(span);
    if (member.matches()) {
      return checkMember(member.group(1), member.group(2));
    }
    if (TYPE_NAME.matcher(span).matches()) {
      return checkType(span);
    }
    if (span.startsWith("iree-stubs ")) {
      return "there is no iree-stubs command: the command-line tool is java -jar"
          + " cli/target/iree-stubs-cli-<version>.jar";
    }
    Matcher property = PROPERTY.matcher(span);
    if (property.matches()) {
      String name = property.group(2);
      return mentioned(name) ? null : "no source, POM or script reads the property " + name;
    }
    Matcher variable = VARIABLE.matcher(span);
    if (variable.matches()) {
      String name = variable.group(1);
      return mentioned(name) ? null : "no source or script reads the variable " + name;
    }
    return null;
  }

  private String checkMember(String receiver, String member) {
    String type = RECEIVERS.getOrDefault(receiver, receiver);
    if (!Character.isUpperCase(type.charAt(0))) {
      return null;
    }
    if (testSources.containsKey(type) && !sourcesByType.containsKey(type)) {
      return declaresIn(testSources.get(type), member) ? null : type + " has no member " + member;
    }
    if (sourcesByType.containsKey(type)) {
      return declares(type, member, new HashSet<>())
          ? null
          : type
              + " has no member "
              + member
              + (type.equals(receiver) ? "" : " (`" + receiver + "` reads as a " + type + ")");
    }
    if (EXTERNAL_NAMES.contains(type)) {
      return null;
    }
    Optional<Class<?>> jdk = jdkClass(type);
    if (jdk.isEmpty()) {
      return noClass(type);
    }
    Class<?> c = jdk.get();
    boolean found =
        Arrays.stream(c.getMethods()).map(Method::getName).anyMatch(member::equals)
            || Arrays.stream(c.getFields()).anyMatch(f -> f.getName().equals(member));
    return found ? null : c.getName() + " has no public member " + member;
  }

  private String checkType(String type) {
    if (sourcesByType.containsKey(type)
        || testSources.containsKey(type)
        || EXTERNAL_NAMES.contains(type)) {
      return null;
    }
    return jdkClass(type).isPresent() ? null : noClass(type);
  }

  /** The JDK class of that simple name in one of {@link #JDK_PACKAGES}, if any. */
  private static Optional<Class<?>> jdkClass(String type) {
    for (String pkg : JDK_PACKAGES) {
      try {
        return Optional.of(Class.forName(pkg + type));
      } catch (ClassNotFoundException e) {
        // the next package
      }
    }
    return Optional.empty();
  }

  private static String noClass(String type) {
    return "no class "
        + type
        + " in the project or the JDK (a type of another project goes in EXTERNAL_NAMES)";
  }

  /** Whether {@code type} or a project supertype of it declares {@code member}. */
  private boolean declares(String type, String member, Set<String> seen) {
    if (OBJECT_MEMBERS.contains(member)) {
      return true;
    }
    if (!seen.add(type)) {
      return false;
    }
    List<String> sources = sourcesByType.getOrDefault(type, List.of());
    if (declaresIn(sources, member)) {
      return true;
    }
    // The supertypes named in the type's header: `class T extends A implements B, C<D> {`.
    Pattern header =
        Pattern.compile(
            "\\b(?:class|interface|record|enum)\\s+"
                + Pattern.quote(type)
                + "\\b[^{]*?\\b(?:extends|implements)\\b([^{]*)\\{");
    for (String source : sources) {
      Matcher h = header.matcher(source);
      if (h.find()) {
        Matcher name = Pattern.compile("\\b([A-Z]\\w*)\\b").matcher(h.group(1));
        while (name.find()) {
          if (sourcesByType.containsKey(name.group(1)) && declares(name.group(1), member, seen)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** A method (declared or called with that name), a field or an enum constant of these sources. */
  private static boolean declaresIn(List<String> sources, String member) {
    String m = Pattern.quote(member);
    Pattern declared =
        Pattern.compile(
            "\\b" + m + "\\s*\\(|[\\w>\\]]\\s+" + m + "\\s*[=;,)]|(?m)^\\s*" + m + "\\s*[,;(]");
    return sources.stream().anyMatch(source -> declared.matcher(source).find());
  }

  private boolean mentioned(String name) {
    return everything.contains(name);
  }

  /** The anchors a page offers: its headings as GitHub slugs them, and explicit anchors. */
  public static Set<String> anchors(Path page) {
    Set<String> anchors = new HashSet<>();
    if (!page.toString().endsWith(".md")) {
      return anchors;
    }
    String text = withoutFences(read(page));
    Map<String, Integer> seen = new LinkedHashMap<>();
    Matcher h = HEADING.matcher(text);
    while (h.find()) {
      String slug = slug(h.group(1));
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      anchors.add(n == 0 ? slug : slug + "-" + n);
    }
    Matcher a = EXPLICIT_ANCHOR.matcher(text);
    while (a.find()) {
      anchors.add(a.group(1));
    }
    return anchors;
  }

  /** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
  public static String slug(String heading) {
    String plain = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
    StringBuilder slug = new StringBuilder();
    for (char c : plain.toLowerCase(Locale.ROOT).toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        slug.append(c);
      } else if (c == ' ') {
        slug.append('-');
      }
    }
    return slug.toString();
  }

  private static String withoutFences(String text) {
    Matcher m = FENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group().replaceAll("[^\\n]", " ")));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static int lineOf(String text, int offset) {
    return 1 + (int) text.substring(0, offset).chars().filter(c -> c == '\n').count();
  }

  private static List<Path> files(Path root, java.util.function.Predicate<Path> filter) {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(
              p -> !root.relativize(p).toString().matches("(.*/)?(target|node_modules|\\.git)/.*"))
          .filter(filter)
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
