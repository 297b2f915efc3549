package dev.ireestubs.abi;

import dev.ireestubs.abi.JsonTree.Node;
import dev.ireestubs.abi.JsonTree.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Parser and canonical printer for the {@code iree.abi} JSON: one function {@code
 * {"a":[...],"r":[...],"v":1}}, one type record, or a module file mapping function names to
 * function objects.
 *
 * <p>Type records, as IREE's V1 ABI defines them:
 *
 * <ul>
 *   <li>primitives {@code "i1"}, {@code "i<width>"}, {@code "f16"}, {@code "f32"}, {@code "f64"},
 *       {@code "bf16"} become {@link AbiType.Scalar}; {@code "unknown"} becomes {@link
 *       AbiType.Unknown}; {@code null} becomes {@link AbiType.Any};
 *   <li>{@code ["ndarray", E, rank, dims...]} ({@code rank} {@code null} = unranked with no dims, a
 *       {@code null} dim = dynamic) becomes {@link AbiType.NdArray};
 *   <li>{@code ["slist", T...]} and {@code ["stuple", T...]} become {@link AbiType.Sequence};
 *   <li>{@code ["sdict", [key, T]...]} becomes {@link AbiType.Dict}, keys in the order given;
 *   <li>{@code ["py_homogeneous_list", T]} becomes {@link AbiType.HomogeneousList};
 *   <li>{@code ["named", name, T]} at the root of {@code "a"} becomes {@link AbiType.Named}.
 * </ul>
 *
 * <p>Tags seen in real data but outside the spec ({@code sdict_kwargs}, {@code py_uniform_list},
 * {@code pytuple}, {@code py_uniform_dict}, {@code pystr}, and any other unknown tag), a {@code
 * named} below the root, and an ndarray whose rank disagrees with its dims parse as {@link
 * AbiType.Unsupported}, so one odd function never fails a whole module; such a record keeps its
 * JSON (canonical: no whitespace, keys in source order, numbers as written) and prints back as that
 * JSON. Text that is not JSON, a record of the wrong JSON shape, a number beyond the range of a
 * double, and text beyond a {@link ParseLimits} limit are {@link AbiParseException}s naming the
 * JSON path (or the limit), line and column. Parsing takes time and memory linear in the text. It
 * reads with the jackson-core the runtime's jar carries (relocated, so an application's own
 * Jackson, of whatever version, is never the one used).
 *
 * <p>The printer writes what IREE's compiler writes: no whitespace, object keys sorted ({@code
 * "a"}, {@code "r"}, {@code "v"}), {@code "v"} only when the signature has a version. Printing is
 * lossless for every signature this parser returns: {@code parseFunction(print(s))} equals {@code
 * s}. Types from other formats are mapped as the compiler maps them (signedness dropped, index and
 * complex as {@code "unknown"}, opaque refs as {@code "unknown"}, an unsupported record of another
 * format as a JSON string of its text).
 */
public final class AbiJson {

  private static final ReflectionFormat FORMAT = ReflectionFormat.IREE_ABI_JSON;
  private static final Set<String> KNOWN_UNSUPPORTED_TAGS =
      Set.of("sdict_kwargs", "py_uniform_list", "pytuple", "py_uniform_dict", "pystr");
  private static final String NOT_IN_SPEC = "not part of the iree.abi V1 spec";
  private static final String UNKNOWN_TAG = "unknown type record tag ";
  private static final String UNKNOWN_PRIMITIVE =
      "unknown primitive type (expected i<width>, f16, f32, f64 or bf16)";

  private AbiJson() {}

  // ---------------------------------------------------------------- parsing

  /**
   * Parses one function object {@code {"a":[...],"r":[...]}} ({@code "v"} optional; other keys
   * ignored, as IREE's runtime ignores them).
   *
   * @param json one function's {@code iree.abi} text
   * @return the function's arguments and results, in format {@link ReflectionFormat#IREE_ABI_JSON}
   * @throws AbiParseException when the text is not such an object, or breaks a {@link ParseLimits}
   *     limit
   */
  public static FunctionSignature parseFunction(String json) {
    return function(tree(json), Path.ROOT);
  }

  /**
   * Parses a module file: a JSON object mapping each function name to a function object. The map
   * keeps the file's order.
   *
   * @param json the text of a JSON module file
   * @return each function's signature by name, in the file's order
   * @throws AbiParseException when the text is not such an object, or breaks a {@link ParseLimits}
   *     limit (such as more than {@link ParseLimits#MAX_FUNCTIONS} functions)
   */
  public static Map<String, FunctionSignature> parseModule(String json) {
    Node root = tree(json);
    if (!root.isObject()) {
      throw error(
          Path.ROOT,
          root,
          "expected an object mapping function names to {\"a\":[...],\"r\":[...]}, found "
              + root.describe());
    }
    Map<String, Node> entries = root.object();
    if (entries.size() > ParseLimits.MAX_FUNCTIONS) {
      throw error(
          Path.ROOT,
          root,
          ParseLimits.exceeded(
              "the number of functions",
              entries.size(),
              "",
              "MAX_FUNCTIONS",
              ParseLimits.MAX_FUNCTIONS));
    }
    Map<String, FunctionSignature> functions = new LinkedHashMap<>();
    for (Map.Entry<String, Node> e : entries.entrySet()) {
      functions.put(e.getKey(), function(e.getValue(), Path.ROOT.key(e.getKey())));
    }
    return functions;
  }

  /**
   * Parses one type record, e.g. {@code ["ndarray","f32",1,4]}.
   *
   * @param json one type record's text
   * @return the type the record describes
   * @throws AbiParseException when the text is not a type record, or breaks a {@link ParseLimits}
   *     limit
   */
  public static AbiType parseType(String json) {
    return type(tree(json), Path.ROOT, Place.NESTED);
  }

  /** The JSON tree of {@code json}. */
  private static Node tree(String json) {
    return JsonTree.parse(json);
  }

  /** Where a type record stands, which decides what it may be and what is kept of it. */
  private enum Place {
    /** A root argument: may be {@code named}. */
    ARGUMENT,
    /** Any other place. */
    NESTED,
    /**
     * Inside a record that is itself unsupported ({@code named} below the root): only checked for
     * errors, as the result is thrown away; unsupported records keep no source text here.
     */
    CHECK_ONLY;

    /** The place of this record's children. */
    Place children() {
      return this == CHECK_ONLY ? CHECK_ONLY : NESTED;
    }
  }

  private static FunctionSignature function(Node node, Path path) {
    if (!node.isObject()) {
      throw error(
          path,
          node,
          "expected a function object {\"a\":[...],\"r\":[...]}, found " + node.describe());
    }
    Map<String, Node> fields = node.object();
    List<AbiType> args = records(fields, "a", node, path, Place.ARGUMENT);
    List<AbiType> results = records(fields, "r", node, path, Place.NESTED);
    OptionalInt version = OptionalInt.empty();
    Node v = fields.get("v");
    if (v != null) {
      if (!v.isInteger() || v.integer().bitLength() > 31) {
        throw error(
            path.key("v"), v, "expected the ABI version as an integer, found " + v.describe());
      }
      version = OptionalInt.of(v.integer().intValue());
    }
    return new FunctionSignature(
        args, results, FORMAT, FunctionSignature.CallingModel.SYNC, version);
  }

  private static List<AbiType> records(
      Map<String, Node> fields, String key, Node parent, Path path, Place place) {
    Node list = fields.get(key);
    Path listPath = path.key(key);
    if (list == null) {
      throw error(
          path,
          parent,
          "missing \"" + key + "\": a function object needs \"a\" (arguments) and \"r\" (results)");
    }
    if (!list.isArray()) {
      throw error(listPath, list, "expected an array of type records, found " + list.describe());
    }
    List<Node> items = list.array();
    List<AbiType> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      out.add(type(items.get(i), listPath.index(i), place));
    }
    return out;
  }

  private static AbiType type(Node node, Path path, Place place) {
    if (node.isNull()) {
      return new AbiType.Any();
    }
    if (node.isString()) {
      return primitive(node.string());
    }
    if (!node.isArray()) {
      throw error(
          path,
          node,
          "expected a type record (a primitive string, null, or an array starting with a tag),"
              + " found "
              + node.describe());
    }
    List<Node> items = node.array();
    if (items.isEmpty() || !items.get(0).isString()) {
      throw error(
          path,
          node,
          "expected an array starting with a tag such as \"ndarray\" or \"sdict\", found "
              + (items.isEmpty()
                  ? "an empty array"
                  : "an array starting with " + items.get(0).describe()));
    }
    String tag = items.get(0).string();
    switch (tag) {
      case "ndarray" -> {
        return ndarray(node, path, place);
      }
      case "slist" -> {
        return sequence(AbiType.SequenceKind.LIST, node, path, place);
      }
      case "stuple" -> {
        return sequence(AbiType.SequenceKind.TUPLE, node, path, place);
      }
      case "sdict" -> {
        return dict(node, path, place);
      }
      case "py_homogeneous_list" -> {
        expectLength(node, path, 2, 2, "[\"py_homogeneous_list\", T]");
        return new AbiType.HomogeneousList(type(items.get(1), path.index(1), place.children()));
      }
      case "named" -> {
        expectLength(node, path, 3, 3, "[\"named\", name, T]");
        String name = name(items.get(1), path.index(1), "argument name");
        if (place != Place.ARGUMENT) {
          // Check the inner record all the same, so a malformed one still fails clearly.
          type(items.get(2), path.index(2), Place.CHECK_ONLY);
          return unsupported(tag, node, place, "\"named\" is allowed only as a root argument");
        }
        AbiType inner = type(items.get(2), path.index(2), Place.NESTED);
        return new AbiType.Named(name, inner);
      }
      default -> {
        return unsupported(
            tag,
            node,
            place,
            KNOWN_UNSUPPORTED_TAGS.contains(tag)
                ? "\""
                    + tag
                    + "\" is not part of the iree.abi V1 spec (a pre-2021-08 or"
                    + " frontend-specific tag)"
                : UNKNOWN_TAG + JsonStrings.excerpt(tag));
      }
    }
  }

  /**
   * An unsupported record keeping its canonical JSON text, which {@link #print} writes back; no
   * text under {@link Place#CHECK_ONLY}, where the record is thrown away.
   */
  private static AbiType unsupported(String tag, Node node, Place place, String reason) {
    String source = place == Place.CHECK_ONLY ? "" : node.canonical();
    return new AbiType.Unsupported(tag, source, FORMAT, reason);
  }

  /**
   * A string naming something (an sdict key, an argument), at most {@link
   * ParseLimits#MAX_NAME_LENGTH} long.
   */
  private static String name(Node node, Path path, String what) {
    if (!node.isString()) {
      throw error(path, node, "expected the " + what + " as a string, found " + node.describe());
    }
    String name = node.string();
    if (name.length() > ParseLimits.MAX_NAME_LENGTH) {
      throw error(
          path,
          node,
          ParseLimits.exceeded(
              "the " + what,
              name.length(),
              "characters long",
              "MAX_NAME_LENGTH",
              ParseLimits.MAX_NAME_LENGTH));
    }
    return name;
  }

  private static AbiType primitive(String s) {
    ElementType e = elementOrNull(s);
    if (e != null) {
      return new AbiType.Scalar(e);
    }
    if (s.equals("unknown")) {
      return new AbiType.Unknown();
    }
    // The source quotes the string, so the reason need not (and one string serves every record).
    return new AbiType.Unsupported(
        s,
        JsonStrings.quote(s),
        FORMAT,
        KNOWN_UNSUPPORTED_TAGS.contains(s) ? NOT_IN_SPEC : UNKNOWN_PRIMITIVE);
  }

  /** The element type a JSON primitive names, or null. */
  private static ElementType elementOrNull(String s) {
    switch (s) {
      case "f16" -> {
        return ElementType.F16;
      }
      case "f32" -> {
        return ElementType.F32;
      }
      case "f64" -> {
        return ElementType.F64;
      }
      case "bf16" -> {
        return ElementType.BF16;
      }
      case "i1" -> {
        return ElementType.I1;
      }
      case "i8" -> {
        return ElementType.I8;
      }
      case "i16" -> {
        return ElementType.I16;
      }
      case "i32" -> {
        return ElementType.I32;
      }
      case "i64" -> {
        return ElementType.I64;
      }
      case "f8" -> {
        // How the compiler writes every 8-bit float; which one is lost.
        return ElementType.otherFloat("f8", 8);
      }
      default -> {
        int bits = integerWidth(s);
        return bits > 0 && bits <= ElementType.MAX_INTEGER_WIDTH ? ElementType.integer(bits) : null;
      }
    }
  }

  /** The width of {@code i<width>} (no leading zero, at most 8 digits), else -1. */
  private static int integerWidth(String s) {
    if (s.length() < 2 || s.length() > 9 || s.charAt(0) != 'i' || s.charAt(1) == '0') {
      return -1;
    }
    int bits = 0;
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      bits = bits * 10 + (c - '0');
    }
    return bits;
  }

  private static AbiType ndarray(Node node, Path path, Place place) {
    List<Node> items = node.array();
    expectLength(node, path, 3, Integer.MAX_VALUE, "[\"ndarray\", E, rank, dims...]");
    Node e = items.get(1);
    ElementType element;
    if (e.isNull()) {
      element = ElementType.UNKNOWN;
    } else if (e.isString() && e.string().equals("unknown")) {
      element = ElementType.UNKNOWN;
    } else if (e.isString() && elementOrNull(e.string()) != null) {
      element = elementOrNull(e.string());
    } else if (e.isString()) {
      return unsupported(
          "ndarray",
          node,
          place,
          "unsupported ndarray element type " + JsonStrings.excerpt(e.string()));
    } else {
      throw error(
          path.index(1), e, "expected the element type as a string or null, found " + e.describe());
    }
    Node r = items.get(2);
    int dimCount = items.size() - 3;
    if (r.isNull()) {
      if (dimCount != 0) {
        return unsupported(
            "ndarray", node, place, "an unranked ndarray (rank null) lists " + dimCount + " dims");
      }
      return new AbiType.NdArray(element, Shape.unranked());
    }
    long rank = r.integerAtMost(Integer.MAX_VALUE);
    if (rank < 0) {
      throw error(
          path.index(2),
          r,
          "expected the rank as an integer >= 0 or null, found "
              + (r.isInteger() ? "a rank out of range: " + r.integer() : r.describe()));
    }
    long[] dims = new long[dimCount];
    for (int i = 0; i < dimCount; i++) {
      Node d = items.get(3 + i);
      if (d.isNull()) {
        dims[i] = Shape.DYNAMIC;
      } else {
        dims[i] = d.integerAtMost((1L << 62) - 1);
        if (dims[i] < 0) {
          throw error(
              path.index(3 + i),
              d,
              "expected a dimension as an integer >= 0 or null (dynamic), found " + d.describe());
        }
      }
    }
    if (rank != dimCount) {
      return unsupported(
          "ndarray",
          node,
          place,
          "the rank is "
              + rank
              + " but "
              + dimCount
              + (dimCount == 1 ? " dim is" : " dims are")
              + " listed");
    }
    return new AbiType.NdArray(element, Shape.of(dims));
  }

  private static AbiType sequence(AbiType.SequenceKind kind, Node node, Path path, Place place) {
    List<Node> items = node.array();
    List<AbiType> elements = new ArrayList<>(items.size() - 1);
    for (int i = 1; i < items.size(); i++) {
      elements.add(type(items.get(i), path.index(i), place.children()));
    }
    return new AbiType.Sequence(kind, elements);
  }

  private static AbiType dict(Node node, Path path, Place place) {
    List<Node> items = node.array();
    List<AbiType.Entry> entries = new ArrayList<>(items.size() - 1);
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 1; i < items.size(); i++) {
      Node entry = items.get(i);
      Path entryPath = path.index(i);
      if (!entry.isArray() || entry.array().size() != 2 || !entry.array().get(0).isString()) {
        throw error(
            entryPath,
            entry,
            "expected an sdict entry [key, T] with a string key, found " + describeEntry(entry));
      }
      String key = name(entry.array().get(0), entryPath.index(0), "sdict key");
      Integer first = seen.putIfAbsent(key, i);
      if (first != null) {
        throw error(
            entryPath.index(0),
            entry.array().get(0),
            "duplicate sdict key "
                + JsonStrings.excerpt(key)
                + " (first at "
                + path.index(first)
                + ")");
      }
      entries.add(
          new AbiType.Entry(key, type(entry.array().get(1), entryPath.index(1), place.children())));
    }
    return new AbiType.Dict(entries);
  }

  private static String describeEntry(Node entry) {
    if (entry.isArray()) {
      return "an array of " + entry.array().size() + " values " + entry.excerpt();
    }
    return entry.describe();
  }

  private static void expectLength(Node node, Path path, int min, int max, String form) {
    int n = node.array().size();
    if (n < min || n > max) {
      throw error(
          path,
          node,
          "expected " + form + ", found an array of " + n + " values " + node.excerpt());
    }
  }

  private static AbiParseException error(Path path, Node node, String detail) {
    return new AbiParseException(FORMAT, JsonTree.position(path, node), detail);
  }

  // ---------------------------------------------------------------- printing

  /**
   * The canonical text of one function: {@code {"a":[...],"r":[...],"v":1}}.
   *
   * @param signature the function to print
   * @return compact JSON that {@link #parseFunction} reads back as {@code signature}
   */
  public static String print(FunctionSignature signature) {
    return AbiJsonPrinter.print(signature);
  }

  /**
   * The canonical text of a module file; functions in the map's order.
   *
   * @param functions each function's signature, by name
   * @return compact JSON that {@link #parseModule} reads back as {@code functions}
   */
  public static String printModule(Map<String, FunctionSignature> functions) {
    return AbiJsonPrinter.printModule(functions);
  }

  /**
   * The canonical text of one type record.
   *
   * @param type the type to print
   * @return compact JSON that {@link #parseType} reads back as {@code type}
   */
  public static String printType(AbiType type) {
    return AbiJsonPrinter.printType(type);
  }
}
