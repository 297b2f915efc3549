package dev.ireestubs.processor;

import com.google.testing.compile.JavaFileObjects;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.names.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.SourceVersion;
import javax.lang.model.type.TypeKind;
import javax.tools.JavaFileObject;

/**
 * Writes a Java interface that should bind to a signature (for conformance tests), optionally with
 * one deliberate mistake and the error it must cause. Every parameter, record component and the
 * method sit on their own line with a marker comment ({@code /*arg1*}{@code /}, {@code
 * /*R0.key*}{@code /}, {@code /*method*}{@code /}) so tests can name the line an error belongs on.
 *
 * <p>Structures alternate between their two Java forms (typed array or Java array; record or {@code
 * List}) from one interface to the next, and sdict records declare their components in reverse key
 * order, so the binder's descriptor ordering is exercised.
 */
public final class InterfaceSource {

  /** The one mistake to make. */
  public enum Perturbation {
    NONE,
    /** A named argument's parameter gets another name. */
    RENAME_NAMED,
    /** An sdict record component gets a misspelt name. */
    MISSPELL_KEY,
    /** A scalar or ndarray root argument gets the type String. */
    WRONG_LEAF_TYPE,
    /** The return type is void where there are results, int where there are none. */
    WRONG_RESULT,
    /** One parameter too many. */
    EXTRA_PARAMETER
  }

  /** An error the source must cause: fragments of its message, and a fragment of its line. */
  public record Expected(List<String> fragments, String line) {
    Expected(String fragment, String line) {
      this(List.of(fragment), line);
    }
  }

  /** A generated source and what compiling it must report. */
  public record Generated(
      String className, JavaFileObject file, String text, List<Expected> errors, boolean binds) {}

  private static final Set<String> RECORD_FORBIDDEN =
      Set.of(
          "clone", "finalize", "getClass", "hashCode", "notify", "notifyAll", "toString", "wait");

  private final String function;
  private final FunctionSignature signature;
  private final boolean alternate;
  private final List<String> records = new ArrayList<>();
  private final List<Expected> errors = new ArrayList<>();
  private Perturbation perturbation;
  private boolean misspelt;
  private int choice;

  private InterfaceSource(String function, FunctionSignature signature, boolean alternate) {
    this.function = function;
    this.signature = signature;
    this.alternate = alternate;
  }

  /** The mistakes that make sense for {@code signature}, in a fixed order. */
  public static List<Perturbation> perturbationsFor(FunctionSignature signature) {
    List<Perturbation> out = new ArrayList<>();
    if (signature.arguments().stream().anyMatch(a -> a instanceof AbiType.Named)) {
      out.add(Perturbation.RENAME_NAMED);
    }
    if (signature.arguments().stream().anyMatch(InterfaceSource::hasDict)
        || signature.results().stream().anyMatch(InterfaceSource::hasDict)) {
      out.add(Perturbation.MISSPELL_KEY);
    }
    if (signature.arguments().stream()
        .map(InterfaceSource::unnamed)
        .anyMatch(InterfaceSource::isLeaf)) {
      out.add(Perturbation.WRONG_LEAF_TYPE);
    }
    out.add(Perturbation.WRONG_RESULT);
    out.add(Perturbation.EXTRA_PARAMETER);
    return out;
  }

  /**
   * The first unsupported type record in the signature, as the error would quote it: its source
   * text for {@link AbiType.Unsupported}, else its JSON.
   */
  public static Optional<String> unsupported(FunctionSignature signature) {
    List<AbiType> all = new ArrayList<>(signature.arguments());
    all.addAll(signature.results());
    for (AbiType t : all) {
      Optional<String> u = unsupported(t);
      if (u.isPresent()) {
        return u;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> unsupported(AbiType t) {
    t = unnamed(t);
    if (t instanceof AbiType.Unsupported) {
      return Optional.of(((AbiType.Unsupported) t).source());
    }
    if (t instanceof AbiType.Scalar
        && TestMapping.primitiveFor(((AbiType.Scalar) t).element()) == null) {
      return Optional.of(AbiJson.printType(t));
    }
    if (t instanceof AbiType.NdArray) {
      AbiType.NdArray a = (AbiType.NdArray) t;
      if (a.element().isKnown() && NdArray.classNamesAccepting(a.element()).isEmpty()) {
        return Optional.of(AbiJson.printType(t));
      }
    }
    for (AbiType child : children(t)) {
      Optional<String> u = unsupported(child);
      if (u.isPresent()) {
        return u;
      }
    }
    return Optional.empty();
  }

  /**
   * The interface {@code className} with one method bound to {@code function} by inline
   * {@code @IreeFunction(abi)} JSON {@code abiJson}.
   *
   * @param alternate which of the two Java forms structures take first
   */
  public static Generated generate(
      String className,
      String function,
      String abiJson,
      FunctionSignature signature,
      Perturbation perturbation,
      boolean alternate) {
    InterfaceSource s = new InterfaceSource(function, signature, alternate);
    s.perturbation = perturbation;
    return s.write(className, abiJson);
  }

  private Generated write(String className, String abiJson) {
    String method = javaName(function, "call");
    List<String> params = new ArrayList<>();
    List<AbiType> args = signature.arguments();
    boolean leafDone = false;
    boolean namedDone = false;
    for (int i = 0; i < args.size(); i++) {
      AbiType arg = args.get(i);
      String marker = "/*arg" + i + "*/";
      String name = "arg" + i;
      String annotation = "";
      if (arg instanceof AbiType.Named) {
        String key = ((AbiType.Named) arg).name();
        if (perturbation == Perturbation.RENAME_NAMED && !namedDone) {
          namedDone = true;
          name = javaName(key, "arg" + i) + "X";
          errors.add(
              new Expected(
                  "[IreeSignatureMismatch] "
                      + function
                      + ": argument "
                      + i
                      + " is named \""
                      + key
                      + "\" in the module, but the parameter is named "
                      + name,
                  marker));
        } else if (Names.isJavaName(key)) {
          name = key;
        } else {
          annotation = "@IreeKey(" + ProcessorTester.lit(key) + ") ";
        }
      }
      AbiType inner = unnamed(arg);
      String type;
      if (perturbation == Perturbation.WRONG_LEAF_TYPE && !leafDone && isLeaf(inner)) {
        leafDone = true;
        type = "String";
        String pathName = arg instanceof AbiType.Named ? ((AbiType.Named) arg).name() : name;
        errors.add(
            new Expected(
                List.of(
                    "[IreeSignatureMismatch] "
                        + function
                        + ": "
                        + pathName
                        + " is "
                        + AbiJson.printType(inner)
                        + " in the module, which binds to ",
                    "but the parameter is String; change its type to "),
                marker));
      } else {
        type = type(inner, name, false);
      }
      params.add("      " + marker + " " + annotation + type + " " + name);
    }
    if (perturbation == Perturbation.EXTRA_PARAMETER) {
      params.add("      /*extra*/ int extraParameter");
      errors.add(
          new Expected(
              "[IreeSignatureMismatch] "
                  + function
                  + ": the function takes "
                  + Messages.count(args.size(), "argument")
                  + " in the module "
                  + describeAll(args)
                  + ", but method "
                  + method
                  + " has "
                  + Messages.count(args.size() + 1, "parameter"),
              "/*method*/"));
    }
    String returnType = returnType();
    if (perturbation == Perturbation.WRONG_RESULT) {
      if (signature.results().isEmpty()) {
        returnType = "int";
        errors.add(
            new Expected(
                "[IreeSignatureMismatch] "
                    + function
                    + ": the function returns nothing in the module, but method "
                    + method
                    + " returns int; change the return type to void",
                "/*method*/"));
      } else {
        returnType = "void";
        errors.add(
            new Expected(
                "[IreeSignatureMismatch] "
                    + function
                    + ": the function returns "
                    + describeAll(signature.results())
                    + " in the module, but method "
                    + method
                    + " returns void",
                "/*method*/"));
      }
    }
    List<String> lines = new ArrayList<>();
    lines.add("package test;");
    lines.add(ProcessorTester.IMPORTS);
    lines.add("@IreeModule");
    lines.add("interface " + className + " {");
    lines.addAll(records);
    lines.add(
        "  @IreeFunction(value = "
            + ProcessorTester.lit(function)
            + ", abi = "
            + ProcessorTester.lit(abiJson)
            + ")");
    lines.add("  /*method*/ " + returnType + " " + method + "(");
    lines.add(String.join(",\n", params) + ");");
    lines.add("}");
    JavaFileObject file = JavaFileObjects.forSourceLines("test." + className, lines);
    return new Generated(
        className, file, String.join("\n", lines), List.copyOf(errors), errors.isEmpty());
  }

  private String returnType() {
    List<AbiType> results = signature.results();
    if (results.isEmpty()) {
      return "void";
    }
    if (results.size() == 1) {
      return type(results.get(0), "result", false);
    }
    List<String> components = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      components.add(
          "      /*Results.r" + i + "*/ " + type(results.get(i), "r" + i, false) + " r" + i);
    }
    records.add("  record Results(\n" + String.join(",\n", components) + ") {}");
    return "Results";
  }

  /** The Java type for {@code t}, declaring records as needed. */
  private String type(AbiType t, String hint, boolean boxed) {
    t = unnamed(t);
    if (t instanceof AbiType.Scalar) {
      TypeKind k = TestMapping.primitiveFor(((AbiType.Scalar) t).element());
      if (k == null) {
        return boxed ? "Integer" : "int";
      }
      return boxed ? box(k) : k.toString().toLowerCase(java.util.Locale.ROOT);
    }
    if (t instanceof AbiType.NdArray) {
      AbiType.NdArray a = (AbiType.NdArray) t;
      TypeKind c = TestMapping.javaArrayComponentFor(a.element());
      if (c != null && a.shape().isRanked() && a.shape().rank() > 0 && flip()) {
        return c.toString().toLowerCase(java.util.Locale.ROOT) + "[]".repeat(a.shape().rank());
      }
      List<String> classes = NdArray.classNamesAccepting(a.element());
      return classes.isEmpty() ? "NdArray" : classes.get(0);
    }
    if (t instanceof AbiType.Dict) {
      return dictRecord((AbiType.Dict) t);
    }
    if (t instanceof AbiType.Sequence) {
      List<AbiType> elems = ((AbiType.Sequence) t).elements();
      boolean uniform = !elems.isEmpty() && elems.stream().allMatch(e -> e.equals(elems.get(0)));
      if (uniform && flip()) {
        return "List<" + type(elems.get(0), hint, true) + ">";
      }
      String name = "R" + records.size();
      records.add(null); // reserve the name; nested records get later numbers
      List<String> components = new ArrayList<>();
      for (int i = 0; i < elems.size(); i++) {
        components.add(
            "      /*" + name + ".e" + i + "*/ " + type(elems.get(i), "e" + i, false) + " e" + i);
      }
      records.set(
          Integer.parseInt(name.substring(1)),
          "  record " + name + "(\n" + String.join(",\n", components) + ") {}");
      return name;
    }
    if (t instanceof AbiType.HomogeneousList) {
      return "List<" + type(((AbiType.HomogeneousList) t).element(), hint, true) + ">";
    }
    return "VmRef";
  }

  private String dictRecord(AbiType.Dict d) {
    String name = "R" + records.size();
    int index = records.size();
    records.add(null);
    List<AbiType.Entry> entries = d.entries();
    List<String> components = new ArrayList<>();
    // Declared in reverse key order: the binder must still produce descriptor order.
    for (int i = entries.size() - 1; i >= 0; i--) {
      AbiType.Entry e = entries.get(i);
      String camel = AbiType.Dict.camelCase(e.key());
      String component;
      String annotation = "";
      if (Names.isJavaName(camel) && !RECORD_FORBIDDEN.contains(camel)) {
        component = camel;
      } else {
        component = "k" + i;
        annotation = "@IreeKey(" + ProcessorTester.lit(e.key()) + ") ";
      }
      String marker = "/*" + name + "." + e.key() + "*/";
      if (perturbation == Perturbation.MISSPELL_KEY && !misspelt && annotation.isEmpty()) {
        misspelt = true;
        if (component.length() >= 2) {
          char last = component.charAt(component.length() - 1);
          String wrong = component.substring(0, component.length() - 1) + (last == 'q' ? 'z' : 'q');
          errors.add(
              new Expected(
                  List.of(
                      "[IreeSignatureMismatch] " + function + ": ",
                      ": the sdict in the module has no key \""
                          + wrong
                          + "\" for component "
                          + wrong
                          + " of record "
                          + name
                          + "; did you mean \""
                          + e.key()
                          + "\"?"),
                  marker));
          component = wrong;
        } else {
          String wrong = component + "Extra";
          errors.add(
              new Expected(
                  "record "
                      + name
                      + " has component "
                      + wrong
                      + ", but the sdict in the module has no such key",
                  marker));
          errors.add(
              new Expected(
                  "."
                      + e.key()
                      + " is "
                      + AbiJson.printType(e.type())
                      + " in the module, but record "
                      + name
                      + " has no component for key \""
                      + e.key()
                      + "\"",
                  "record " + name + "("));
          component = wrong;
        }
      }
      components.add(
          "      " + marker + " " + annotation + type(e.type(), e.key(), false) + " " + component);
    }
    records.set(index, "  record " + name + "(\n" + String.join(",\n", components) + ") {}");
    return name;
  }

  private boolean flip() {
    choice++;
    return (choice % 2 == 0) == alternate;
  }

  private static String box(TypeKind k) {
    switch (k) {
      case BOOLEAN:
        return "Boolean";
      case BYTE:
        return "Byte";
      case SHORT:
        return "Short";
      case INT:
        return "Integer";
      case LONG:
        return "Long";
      case FLOAT:
        return "Float";
      default:
        return "Double";
    }
  }

  private static String describeAll(List<AbiType> types) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < types.size(); i++) {
      sb.append(i == 0 ? "" : ",").append(AbiJson.printType(types.get(i)));
    }
    return sb.append(']').toString();
  }

  public static String javaName(String name, String fallback) {
    StringBuilder sb = new StringBuilder();
    for (char c : name.toCharArray()) {
      sb.append(Character.isJavaIdentifierPart(c) ? c : '_');
    }
    String s = sb.toString();
    if (s.isEmpty() || !Character.isJavaIdentifierStart(s.charAt(0))) {
      s = fallback + s;
    }
    return SourceVersion.isKeyword(s) ? s + "_" : s;
  }

  public static AbiType unnamed(AbiType t) {
    return t instanceof AbiType.Named ? ((AbiType.Named) t).type() : t;
  }

  private static boolean isLeaf(AbiType t) {
    return t instanceof AbiType.Scalar || t instanceof AbiType.NdArray;
  }

  private static boolean hasDict(AbiType t) {
    t = unnamed(t);
    if (t instanceof AbiType.Dict && !((AbiType.Dict) t).entries().isEmpty()) {
      return true;
    }
    return children(t).stream().anyMatch(InterfaceSource::hasDict);
  }

  private static List<AbiType> children(AbiType t) {
    if (t instanceof AbiType.Dict) {
      List<AbiType> out = new ArrayList<>();
      ((AbiType.Dict) t).entries().forEach(e -> out.add(e.type()));
      return out;
    }
    if (t instanceof AbiType.Sequence) {
      return ((AbiType.Sequence) t).elements();
    }
    if (t instanceof AbiType.HomogeneousList) {
      return List.of(((AbiType.HomogeneousList) t).element());
    }
    return List.of();
  }
}
