package dev.ireestubs.abi;

import java.util.List;
import java.util.Map;

/**
 * The canonical printer behind {@link AbiJson#print}, {@link AbiJson#printModule} and {@link
 * AbiJson#printType}: what IREE's compiler writes, no whitespace, {@code "v"} only when the
 * signature has a version; an unsupported record read from JSON as the JSON it was, one from
 * another format as a JSON string of its text.
 */
final class AbiJsonPrinter {

  private AbiJsonPrinter() {}

  /** The canonical text of one function: {@code {"a":[...],"r":[...],"v":1}}. */
  static String print(FunctionSignature signature) {
    StringBuilder sb = new StringBuilder();
    writeFunction(sb, signature);
    return sb.toString();
  }

  /** The canonical text of a module file; functions in the map's order. */
  static String printModule(Map<String, FunctionSignature> functions) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, FunctionSignature> e : functions.entrySet()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      sb.append(JsonStrings.quote(e.getKey())).append(':');
      writeFunction(sb, e.getValue());
    }
    return sb.append('}').toString();
  }

  /** The canonical text of one type record. */
  static String printType(AbiType type) {
    StringBuilder sb = new StringBuilder();
    writeType(sb, type);
    return sb.toString();
  }

  private static void writeFunction(StringBuilder sb, FunctionSignature signature) {
    sb.append("{\"a\":");
    writeList(sb, signature.arguments());
    sb.append(",\"r\":");
    writeList(sb, signature.results());
    signature.abiVersion().ifPresent(v -> sb.append(",\"v\":").append(v));
    sb.append('}');
  }

  private static void writeList(StringBuilder sb, List<AbiType> types) {
    sb.append('[');
    for (int i = 0; i < types.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      writeType(sb, types.get(i));
    }
    sb.append(']');
  }

  private static void writeType(StringBuilder sb, AbiType type) {
    if (type instanceof AbiType.Scalar scalar) {
      sb.append(JsonStrings.quote(scalar.element().abiJsonName()));
    } else if (type instanceof AbiType.NdArray a) {
      sb.append("[\"ndarray\",").append(JsonStrings.quote(a.element().abiJsonName())).append(',');
      if (!a.shape().isRanked()) {
        sb.append("null");
      } else {
        sb.append(a.shape().rank());
        for (long d : a.shape().dims()) {
          sb.append(',').append(d == Shape.DYNAMIC ? "null" : Long.toString(d));
        }
      }
      sb.append(']');
    } else if (type instanceof AbiType.Sequence s) {
      sb.append('[').append(JsonStrings.quote(s.kind().tag()));
      for (AbiType e : s.elements()) {
        sb.append(',');
        writeType(sb, e);
      }
      sb.append(']');
    } else if (type instanceof AbiType.Dict dict) {
      sb.append("[\"sdict\"");
      for (AbiType.Entry e : dict.entries()) {
        sb.append(",[").append(JsonStrings.quote(e.key())).append(',');
        writeType(sb, e.type());
        sb.append(']');
      }
      sb.append(']');
    } else if (type instanceof AbiType.HomogeneousList homogeneousList) {
      sb.append("[\"py_homogeneous_list\",");
      writeType(sb, homogeneousList.element());
      sb.append(']');
    } else if (type instanceof AbiType.Named n) {
      sb.append("[\"named\",").append(JsonStrings.quote(n.name())).append(',');
      writeType(sb, n.type());
      sb.append(']');
    } else if (type instanceof AbiType.Any) {
      sb.append("null");
    } else if (type instanceof AbiType.Unsupported u) {
      // A record read from JSON is written back as the JSON it was; text from another format is
      // not JSON, so it becomes a string and the output stays valid.
      sb.append(
          u.format() == ReflectionFormat.IREE_ABI_JSON
              ? u.source()
              : JsonStrings.quote(u.source()));
    } else {
      // Unknown, and opaque refs, which the compiler writes as "unknown".
      sb.append("\"unknown\"");
    }
  }
}
