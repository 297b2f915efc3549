package dev.ireestubs.abi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON tree that remembers where each value stood, so that {@link AbiJson} can report
 * errors with a JSON path and a line and column. Package-private: only the JSON format uses it.
 */
final class JsonTree {

  /** Deepest nesting accepted; real type records nest a handful of levels. */
  static final int MAX_DEPTH = 100;

  private static final JsonFactory FACTORY =
      new JsonFactoryBuilder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH)
                  .maxNumberLength(64)
                  .maxStringLength(1 << 20)
                  .build())
          .build();

  /** A parsed value: {@code String}, {@code BigInteger}, {@code Double}, {@code Boolean}, {@code
   * null}, {@code List<Node>} or {@code Map<String, Node>}. */
  static final class Node {
    final Object value;
    final int line;
    final int column;

    Node(Object value, int line, int column) {
      this.value = value;
      this.line = line;
      this.column = column;
    }

    boolean isNull() {
      return value == null;
    }

    boolean isString() {
      return value instanceof String;
    }

    boolean isArray() {
      return value instanceof List;
    }

    boolean isObject() {
      return value instanceof Map;
    }

    boolean isInteger() {
      return value instanceof BigInteger;
    }

    String string() {
      return (String) value;
    }

    BigInteger integer() {
      return (BigInteger) value;
    }

    @SuppressWarnings("unchecked")
    List<Node> array() {
      return (List<Node>) value;
    }

    @SuppressWarnings("unchecked")
    Map<String, Node> object() {
      return (Map<String, Node>) value;
    }

    /** What kind of JSON value this is, for "found ..." in messages. */
    String describe() {
      if (value == null) {
        return "null";
      }
      if (value instanceof String) {
        return "the string " + AbiJson.quote((String) value);
      }
      if (value instanceof BigInteger || value instanceof Double) {
        return "the number " + value;
      }
      if (value instanceof Boolean) {
        return value.toString();
      }
      if (value instanceof List) {
        return "an array";
      }
      return "an object";
    }

    /** Canonical JSON text: no whitespace, keys in source order. */
    String canonical() {
      StringBuilder sb = new StringBuilder();
      write(sb);
      return sb.toString();
    }

    private void write(StringBuilder sb) {
      if (value == null) {
        sb.append("null");
      } else if (value instanceof String) {
        sb.append(AbiJson.quote((String) value));
      } else if (value instanceof List) {
        sb.append('[');
        List<Node> items = array();
        for (int i = 0; i < items.size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          items.get(i).write(sb);
        }
        sb.append(']');
      } else if (value instanceof Map) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, Node> e : object().entrySet()) {
          if (!first) {
            sb.append(',');
          }
          first = false;
          sb.append(AbiJson.quote(e.getKey())).append(':');
          e.getValue().write(sb);
        }
        sb.append('}');
      } else {
        sb.append(value);
      }
    }
  }

  private JsonTree() {}

  /**
   * Parses one JSON value filling the whole text.
   *
   * @throws AbiParseException for malformed JSON, duplicate keys, or nesting beyond {@link
   *     #MAX_DEPTH}
   */
  static Node parse(String text) {
    try (JsonParser p = FACTORY.createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new AbiParseException(
            ReflectionFormat.IREE_ABI_JSON, "offset 0", "expected a JSON value, found no text");
      }
      Node root = read(p, "$");
      JsonToken trailing = p.nextToken();
      if (trailing != null) {
        throw error(p.currentTokenLocation(), "$", "expected the end of the text, found more JSON");
      }
      return root;
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      String msg = e.getOriginalMessage();
      if (msg != null && msg.contains("Document nesting depth")) {
        msg = "nesting deeper than " + MAX_DEPTH + " levels";
      }
      throw new AbiParseException(
          ReflectionFormat.IREE_ABI_JSON,
          loc == null ? "an unknown position" : position(loc),
          "malformed JSON: " + firstLine(msg),
          e);
    } catch (IOException e) {
      // Reading from a String does no I/O; Jackson declares it anyway.
      throw new AbiParseException(
          ReflectionFormat.IREE_ABI_JSON, "offset 0", "unreadable JSON: " + e.getMessage(), e);
    }
  }

  private static Node read(JsonParser p, String path) throws IOException {
    JsonLocation loc = p.currentTokenLocation();
    int line = loc.getLineNr();
    int column = loc.getColumnNr();
    JsonToken t = p.currentToken();
    switch (t) {
      case START_ARRAY:
        {
          List<Node> items = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            items.add(read(p, path + "[" + items.size() + "]"));
          }
          return new Node(items, line, column);
        }
      case START_OBJECT:
        {
          Map<String, Node> fields = new LinkedHashMap<>();
          while (p.nextToken() != JsonToken.END_OBJECT) {
            String name = p.currentName();
            JsonLocation keyLoc = p.currentTokenLocation();
            p.nextToken();
            String childPath = path + "." + name;
            if (fields.containsKey(name)) {
              throw error(keyLoc, childPath, "duplicate key " + AbiJson.quote(name));
            }
            fields.put(name, read(p, childPath));
          }
          return new Node(fields, line, column);
        }
      case VALUE_STRING:
        return new Node(p.getText(), line, column);
      case VALUE_NUMBER_INT:
        return new Node(p.getBigIntegerValue(), line, column);
      case VALUE_NUMBER_FLOAT:
        return new Node(p.getDoubleValue(), line, column);
      case VALUE_TRUE:
        return new Node(Boolean.TRUE, line, column);
      case VALUE_FALSE:
        return new Node(Boolean.FALSE, line, column);
      case VALUE_NULL:
        return new Node(null, line, column);
      default:
        throw error(loc, path, "unexpected JSON token " + t);
    }
  }

  static String position(String path, Node node) {
    return path + " (line " + node.line + ", column " + node.column + ")";
  }

  private static String position(JsonLocation loc) {
    return "line " + loc.getLineNr() + ", column " + loc.getColumnNr();
  }

  private static AbiParseException error(JsonLocation loc, String path, String detail) {
    return new AbiParseException(
        ReflectionFormat.IREE_ABI_JSON, path + " (" + position(loc) + ")", detail);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unexpected input";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
