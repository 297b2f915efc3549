import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a Maven Central Portal bundle (the zip central-publishing-maven-plugin builds) against what
 * Central requires of every component, and prints each finding; exits 1 when there is one.
 *
 * <p>Run as a single-file program (JDK 17+): {@code java ReleaseBundleCheck.java BUNDLE.zip
 * --expect a,b,c [--classifiers x,y] [--gpg]}. Per component (groupId/artifactId/version): its
 * POM, with its own name and (inherited from its parent in the bundle where Maven inherits them)
 * description, url, licenses, developers and scm; for a packaging other than pom, the jar and its
 * -sources and -javadoc jars (not empty); for every file, an .asc signature (checked with gpg when
 * --gpg is given, in the GNUPGHOME of the environment) and .md5 and .sha1 checksums (.sha256 and
 * .sha512 too when present) that match. --expect names the artifactIds the bundle must hold, no
 * more and no fewer; --classifiers the jars iree-stubs-runtime-iree-native must have.
 */
public final class ReleaseBundleCheck {

  private static final Set<String> SIDE_FILES = Set.of(".asc", ".md5", ".sha1", ".sha256", ".sha512");
  private static final Map<String, String> DIGESTS =
      Map.of(".md5", "MD5", ".sha1", "SHA-1", ".sha256", "SHA-256", ".sha512", "SHA-512");
  private static final String NATIVE = "iree-stubs-runtime-iree-native";

  private final List<String> findings = new ArrayList<>();
  private final Map<String, Document> poms = new LinkedHashMap<>(); // "g:a:v" -> POM
  private final Map<String, byte[]> files = new LinkedHashMap<>(); // bundle path -> content

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println(
          "usage: java ReleaseBundleCheck.java BUNDLE.zip --expect a,b [--classifiers x,y] [--gpg]");
      System.exit(2);
    }
    Set<String> expect = new TreeSet<>();
    Set<String> classifiers = new TreeSet<>();
    boolean gpg = false;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--expect" -> expect.addAll(List.of(args[++i].split(",")));
        case "--classifiers" -> classifiers.addAll(List.of(args[++i].split(",")));
        case "--gpg" -> gpg = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    ReleaseBundleCheck check = new ReleaseBundleCheck();
    check.read(Path.of(args[0]));
    check.checkAll(expect, classifiers, gpg);
    for (String f : check.findings) {
      System.out.println("   missing or wrong: " + f);
    }
    System.out.println(
        "release bundle "
            + args[0]
            + ": "
            + check.poms.size()
            + " components, "
            + check.files.size()
            + " files, "
            + check.findings.size()
            + " findings");
    System.exit(check.findings.isEmpty() ? 0 : 1);
  }

  private void read(Path bundle) throws IOException {
    try (ZipFile zip = new ZipFile(bundle.toFile())) {
      for (ZipEntry e : zip.stream().toList()) {
        if (!e.isDirectory()) {
          try (InputStream in = zip.getInputStream(e)) {
            files.put(e.getName(), in.readAllBytes());
          }
        }
      }
    }
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      if (f.getKey().endsWith(".pom")) {
        String[] parts = f.getKey().split("/");
        int n = parts.length;
        String group = String.join(".", List.of(parts).subList(0, n - 3));
        String gav = group + ":" + parts[n - 3] + ":" + parts[n - 2];
        try {
          DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
          factory.setNamespaceAware(false);
          factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
          poms.put(gav, factory.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(f.getValue())));
        } catch (Exception e) {
          findings.add(f.getKey() + ": not a readable POM (" + e.getMessage() + ")");
        }
      }
    }
  }

  private void checkAll(Set<String> expect, Set<String> classifiers, boolean gpg) throws Exception {
    Set<String> found = new TreeSet<>();
    for (Map.Entry<String, Document> pom : poms.entrySet()) {
      String[] gav = pom.getKey().split(":");
      found.add(gav[1]);
      checkPom(pom.getKey(), pom.getValue());
      checkJars(gav, text(pom.getValue().getDocumentElement(), "packaging"), classifiers);
    }
    for (String a : expect) {
      if (!found.contains(a)) {
        findings.add(a + ": not in the bundle");
      }
    }
    for (String a : found) {
      if (!expect.isEmpty() && !expect.contains(a)) {
        findings.add(a + ": in the bundle, but not a published artifact");
      }
    }
    for (String name : files.keySet()) {
      if (SIDE_FILES.stream().noneMatch(name::endsWith)) {
        checkSideFiles(name, gpg);
      }
    }
  }

  private void checkPom(String gav, Document pom) {
    Element project = pom.getDocumentElement();
    if (text(project, "name") == null) {
      findings.add(gav + ": the POM has no <name>");
    }
    for (String element : List.of("description", "url")) {
      if (inherited(project, element) == null) {
        findings.add(gav + ": the POM (nor its parent) has no <" + element + ">");
      }
    }
    if (inherited(project, "licenses/license/name") == null) {
      findings.add(gav + ": the POM (nor its parent) has no <licenses> with a named license");
    }
    if (inherited(project, "developers/developer/name") == null
        && inherited(project, "developers/developer/id") == null) {
      findings.add(gav + ": the POM (nor its parent) has no <developers>");
    }
    if (inherited(project, "scm/url") == null || inherited(project, "scm/connection") == null) {
      findings.add(gav + ": the POM (nor its parent) has no <scm> with url and connection");
    }
  }

  private void checkJars(String[] gav, String packaging, Set<String> classifiers) throws IOException {
    String base = gav[0].replace('.', '/') + "/" + gav[1] + "/" + gav[2] + "/" + gav[1] + "-" + gav[2];
    if (packaging != null && packaging.equals("pom")) {
      if (gav[1].equals(NATIVE)) {
        for (String c : classifiers) {
          require(base + "-" + c + ".jar", "the native jar for " + c, "META-INF/iree-stubs/");
        }
      }
      return;
    }
    require(base + ".jar", "the jar", null);
    require(base + "-sources.jar", "the sources jar", ".java");
    require(base + "-javadoc.jar", "the Javadoc jar", "index.html");
  }

  /** A jar that must be there, with an entry whose name contains {@code entry} (null: any). */
  private void require(String name, String what, String entry) throws IOException {
    byte[] jar = files.get(name);
    if (jar == null) {
      findings.add(name + ": " + what + " is not in the bundle");
      return;
    }
    boolean has = false;
    int count = 0;
    try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(jar))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        count++;
        has |= entry == null || e.getName().contains(entry);
      }
    }
    if (count == 0 || !has) {
      findings.add(name + ": " + what + " holds no " + (entry == null ? "entry" : entry));
    }
  }

  private void checkSideFiles(String name, boolean gpg) throws Exception {
    byte[] content = files.get(name);
    for (String ext : List.of(".md5", ".sha1", ".sha256", ".sha512")) {
      byte[] sum = files.get(name + ext);
      if (sum == null) {
        if (ext.equals(".md5") || ext.equals(".sha1")) {
          findings.add(name + ": no " + ext + " checksum");
        }
        continue;
      }
      String want = new String(sum, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
      if (!want.equalsIgnoreCase(digest(DIGESTS.get(ext), content))) {
        findings.add(name + ": its " + ext + " checksum does not match the file");
      }
    }
    byte[] asc = files.get(name + ".asc");
    if (asc == null) {
      findings.add(name + ": no .asc signature");
    } else if (gpg && !verifies(content, asc)) {
      findings.add(name + ": its .asc signature does not verify (gpg --verify)");
    }
  }

  private static boolean verifies(byte[] content, byte[] asc) throws Exception {
    Path dir = Files.createTempDirectory("bundle-check");
    try {
      Path file = Files.write(dir.resolve("file"), content);
      Path sig = Files.write(dir.resolve("file.asc"), asc);
      Process p =
          new ProcessBuilder("gpg", "--batch", "--verify", sig.toString(), file.toString())
              .redirectErrorStream(true)
              .start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } finally {
      try (Stream<Path> s = Files.list(dir)) {
        for (Path f : s.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(dir);
    }
  }

  private static String digest(String algorithm, byte[] content) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
  }

  /** The element at {@code path} of the POM, else of its parent's POM in the bundle. */
  private String inherited(Element project, String path) {
    for (Element p = project; p != null; p = parentOf(p)) {
      String value = text(p, path);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  private Element parentOf(Element project) {
    Element parent = child(project, "parent");
    if (parent == null) {
      return null;
    }
    String gav =
        text(parent, "groupId") + ":" + text(parent, "artifactId") + ":" + text(parent, "version");
    Document pom = poms.get(gav);
    return pom == null ? null : pom.getDocumentElement();
  }

  /** The non-blank text at a slash-separated path of child elements, else null. */
  private static String text(Element from, String path) {
    Element e = from;
    for (String step : path.split("/")) {
      e = e == null ? null : child(e, step);
    }
    String t = e == null ? null : e.getTextContent().strip();
    return t == null || t.isEmpty() ? null : t;
  }

  private static Element child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }
}
