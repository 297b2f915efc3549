package dev.ireestubs.abi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.base.ParserBase;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A small JSON tree that remembers where each value stood, so that {@link AbiJson} can report
 * errors with a JSON path and a line and column. Package-private: only the JSON format uses it.
 *
 * <p>Reading costs time and memory linear in the text: a value keeps its line and column but not
 * its path, which {@link Path} builds only when an error names it; the {@link ParseLimits} are
 * Jackson's {@link StreamReadConstraints}, and breaking one is an {@link AbiParseException} naming
 * it.
 */
final class JsonTree {

  private static final JsonFactory FACTORY =
      new JsonFactoryBuilder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxDocumentLength(ParseLimits.MAX_TEXT_LENGTH)
                  .maxNestingDepth(ParseLimits.MAX_DEPTH)
                  .maxNameLength(ParseLimits.MAX_NAME_LENGTH)
                  .maxStringLength(ParseLimits.MAX_STRING_LENGTH)
                  .maxNumberLength(ParseLimits.MAX_NUMBER_LENGTH)
                  .build())
          .build();

  /** At most this many characters of a value are quoted in an error message. */
  static final int EXCERPT_LENGTH = JsonStrings.EXCERPT_LENGTH;

  private static final Pattern SIMPLE_KEY = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

  /**
   * A JSON path such as {@code $.a[0][2]}, built up as values are visited and turned into text only
   * for an error message. Keys that are not identifiers are written {@code ["key"]}, long ones
   * shortened.
   */
  static final class Path {
    /** The root, {@code $}. */
    static final Path ROOT = new Path(null, null, -1);

    private final Path parent;
    private final String key;
    private final int index;

    private Path(Path parent, String key, int index) {
      this.parent = parent;
      this.key = key;
      this.index = index;
    }

    /** The path of element {@code i} of the array here. */
    Path index(int i) {
      return new Path(this, null, i);
    }

    /** The path of key {@code name} of the object here. */
    Path key(String name) {
      return new Path(this, name, -1);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      write(sb);
      return sb.toString();
    }

    private void write(StringBuilder sb) {
      if (parent == null) {
        sb.append('$');
        return;
      }
      parent.write(sb);
      if (key == null) {
        sb.append('[').append(index).append(']');
      } else if (key.length() <= EXCERPT_LENGTH && SIMPLE_KEY.matcher(key).matches()) {
        sb.append('.').append(key);
      } else {
        sb.append('[').append(JsonStrings.excerpt(key)).append(']');
      }
    }
  }

  /** A JSON number with a fraction or exponent, kept as written (it is finite as a double). */
  record Decimal(String text) {}

  /**
   * A parsed value: {@code String}, {@code Long} or {@code BigInteger} (integers), {@link Decimal},
   * {@code Boolean}, {@code null}, {@code List<Node>} or {@code Map<String, Node>}.
   */
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
      return value instanceof Long || value instanceof BigInteger;
    }

    String string() {
      return (String) value;
    }

    BigInteger integer() {
      return value instanceof Long l ? BigInteger.valueOf(l) : (BigInteger) value;
    }

    /** The integer value when it lies in {@code [0, max]}, else -1. */
    long integerAtMost(long max) {
      if (value instanceof Long l) {
        long v = l;
        return v >= 0 && v <= max ? v : -1;
      }
      return -1; // a BigInteger is outside the range of a long
    }

    @SuppressWarnings("unchecked")
    List<Node> array() {
      return (List<Node>) value;
    }

    @SuppressWarnings("unchecked")
    Map<String, Node> object() {
      return (Map<String, Node>) value;
    }

    /** What kind of JSON value this is, for "found ..." in messages; bounded in length. */
    String describe() {
      if (value == null) {
        return "null";
      }
      if (value instanceof String string) {
        return "the string " + JsonStrings.excerpt(string);
      }
      if (value instanceof Decimal decimal) {
        return "the number " + decimal.text();
      }
      if (isInteger() || value instanceof Boolean) {
        return (value instanceof Boolean ? "" : "the number ") + value;
      }
      if (value instanceof List) {
        return "an array";
      }
      return "an object";
    }

    /** Canonical JSON text: no whitespace, keys in source order, numbers as written. */
    String canonical() {
      StringBuilder sb = new StringBuilder();
      write(sb, Integer.MAX_VALUE);
      return sb.toString();
    }

    /**
     * The canonical text for a message: at most about {@link #EXCERPT_LENGTH} characters, cut with
     * {@code ...} (and the full length) when longer.
     */
    String excerpt() {
      StringBuilder sb = new StringBuilder();
      if (write(sb, EXCERPT_LENGTH)) {
        return sb.toString();
      }
      return sb.append("... (cut)").toString();
    }

    /** Writes the canonical text; returns false when it stopped after {@code limit} characters. */
    private boolean write(StringBuilder sb, int limit) {
      if (sb.length() > limit) {
        return false;
      }
      if (value == null) {
        sb.append("null");
      } else if (value instanceof String string) {
        sb.append(JsonStrings.quote(string));
      } else if (value instanceof List) {
        sb.append('[');
        List<Node> items = array();
        for (int i = 0; i < items.size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          if (!items.get(i).write(sb, limit)) {
            return false;
          }
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
          sb.append(JsonStrings.quote(e.getKey())).append(':');
          if (!e.getValue().write(sb, limit)) {
            return false;
          }
        }
        sb.append('}');
      } else if (value instanceof Decimal decimal) {
        sb.append(decimal.text());
      } else {
        sb.append(value);
      }
      return sb.length() <= limit;
    }
  }

  private JsonTree() {}

  /**
   * Parses one JSON value filling the whole text.
   *
   * @throws AbiParseException for malformed JSON, duplicate keys, a number beyond the range of a
   *     double, or text beyond a {@link ParseLimits} limit (naming it)
   */
  static Node parse(String text) {
    ParseLimits.checkTextLength(ReflectionFormat.IREE_ABI_JSON, text);
    JsonParser p = null;
    try {
      p = FACTORY.createParser(text);
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new AbiParseException(
            ReflectionFormat.IREE_ABI_JSON, "offset 0", "expected a JSON value, found no text");
      }
      Node root = read(p, Path.ROOT, new ArrayList<>(), 0);
      JsonToken trailing = p.nextToken();
      if (trailing != null) {
        throw error(p, Path.ROOT, "expected the end of the text, found more JSON");
      }
      return root;
    } catch (JsonProcessingException e) {
      // Jackson's constraint errors carry no location; the parser still knows where it stopped.
      JsonLocation loc =
          e.getLocation() != null || p == null ? e.getLocation() : p.currentLocation();
      throw new AbiParseException(
          ReflectionFormat.IREE_ABI_JSON,
          loc == null ? "an unknown position" : position(loc.getLineNr(), loc.getColumnNr()),
          jacksonDetail(e),
          e);
    } catch (IOException e) {
      // Reading from a String does no I/O; Jackson declares it anyway.
      throw new AbiParseException(
          ReflectionFormat.IREE_ABI_JSON, "offset 0", "unreadable JSON: " + e.getMessage(), e);
    } finally {
      if (p != null) {
        try {
          p.close();
        } catch (IOException e) {
          // closing a parser over a String releases buffers only
        }
      }
    }
  }

  /** Reads the value at the current token; {@code path} is only used for errors. */
  private static Node read(JsonParser p, Path path, List<List<Node>> scratches, int depth)
      throws IOException {
    int line = tokenLine(p);
    int column = tokenColumn(p);
    JsonToken t = p.currentToken();
    switch (t) {
      case START_ARRAY -> {
        // Items gather in this depth's scratch list and are copied once into an array of the
        // exact size: most arrays are short records, and a default ArrayList would be mostly
        // empty space.
        List<Node> scratch = scratch(scratches, depth);
        int first = scratch.size();
        JsonToken next;
        while ((next = p.nextToken()) != JsonToken.END_ARRAY) {
          int index = scratch.size() - first;
          scratch.add(read(p, isContainer(next) ? path.index(index) : path, scratches, depth + 1));
        }
        return new Node(take(scratch, first), line, column);
      }
      case START_OBJECT -> {
        Map<String, Node> fields = new LinkedHashMap<>();
        while (p.nextToken() != JsonToken.END_OBJECT) {
          String name = p.currentName();
          if (fields.containsKey(name)) {
            JsonLocation key = p.currentTokenLocation();
            throw new AbiParseException(
                ReflectionFormat.IREE_ABI_JSON,
                path.key(name) + " (" + position(key.getLineNr(), key.getColumnNr()) + ")",
                "duplicate key " + JsonStrings.excerpt(name));
          }
          JsonToken next = p.nextToken();
          fields.put(
              name, read(p, isContainer(next) ? path.key(name) : path, scratches, depth + 1));
        }
        return new Node(fields, line, column);
      }
      case VALUE_STRING -> {
        return new Node(p.getText(), line, column);
      }
      case VALUE_NUMBER_INT -> {
        return new Node(integer(p), line, column);
      }
      case VALUE_NUMBER_FLOAT -> {
        String literal = p.getText();
        if (!Double.isFinite(p.getDoubleValue())) {
          throw error(p, path, "the number " + literal + " is beyond the range of a double");
        }
        return new Node(new Decimal(literal), line, column);
      }
      case VALUE_TRUE -> {
        return new Node(true, line, column);
      }
      case VALUE_FALSE -> {
        return new Node(false, line, column);
      }
      case VALUE_NULL -> {
        return new Node(null, line, column);
      }
      default -> throw error(p, path, "unexpected JSON token " + t);
    }
  }

  /** Removes the items from {@code first} on from {@code scratch}, as a list of exactly them. */
  private static List<Node> take(List<Node> scratch, int first) {
    int n = scratch.size() - first;
    if (n == 0) {
      return List.of();
    }
    Node[] items = new Node[n];
    for (int i = n - 1; i >= 0; i--) {
      items[i] = scratch.remove(first + i);
    }
    return Arrays.asList(items);
  }

  /** The scratch list of {@code depth}, made on first use. */
  private static List<Node> scratch(List<List<Node>> scratches, int depth) {
    while (scratches.size() <= depth) {
      scratches.add(new ArrayList<>());
    }
    return scratches.get(depth);
  }

  private static boolean isContainer(JsonToken t) {
    return t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT;
  }

  private static Object integer(JsonParser p) throws IOException {
    return switch (p.getNumberType()) {
      case INT, LONG -> p.getLongValue();
      default -> p.getBigIntegerValue();
    };
  }

  // Jackson's own parsers track the token's line and column in fields; asking them directly
  // avoids a JsonLocation per value. Their column differs from the JsonLocation's by a fixed
  // amount (one, in Jackson 2.x), measured once here so that positions match Jackson's messages.
  private static final int COLUMN_SKEW = columnSkew();

  private static int columnSkew() {
    try (JsonParser p = FACTORY.createParser("[0]")) {
      p.nextToken();
      p.nextToken();
      return p instanceof ParserBase parserBase
          ? parserBase.getTokenColumnNr() - p.currentTokenLocation().getColumnNr()
          : 0;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The line of the current value token (not a key). */
  private static int tokenLine(JsonParser p) {
    return p instanceof ParserBase parserBase
        ? parserBase.getTokenLineNr()
        : p.currentTokenLocation().getLineNr();
  }

  /** The column of the current value token (not a key). */
  private static int tokenColumn(JsonParser p) {
    return p instanceof ParserBase parserBase
        ? parserBase.getTokenColumnNr() - COLUMN_SKEW
        : p.currentTokenLocation().getColumnNr();
  }

  static String position(Path path, Node node) {
    return path + " (" + position(node.line, node.column) + ")";
  }

  private static String position(int line, int column) {
    return "line " + line + ", column " + column;
  }

  private static AbiParseException error(JsonParser p, Path path, String detail) {
    return new AbiParseException(
        ReflectionFormat.IREE_ABI_JSON,
        path + " (" + position(tokenLine(p), tokenColumn(p)) + ")",
        detail);
  }

  /**
   * Jackson's message, first line only, after "malformed JSON: "; a broken {@link
   * StreamReadConstraints} limit becomes the sentence naming the {@link ParseLimits} constant.
   */
  private static String jacksonDetail(JsonProcessingException e) {
    String msg = e.getOriginalMessage();
    if (msg == null) {
      return "malformed JSON";
    }
    if (e instanceof StreamConstraintsException) {
      if (msg.contains("getMaxNestingDepth")) {
        return ParseLimits.tooDeep("arrays and objects");
      }
      if (msg.contains("getMaxNameLength")) {
        return ParseLimits.tooLong("an object key", "MAX_NAME_LENGTH", ParseLimits.MAX_NAME_LENGTH);
      }
      if (msg.contains("getMaxStringLength")) {
        return ParseLimits.tooLong("a string", "MAX_STRING_LENGTH", ParseLimits.MAX_STRING_LENGTH);
      }
      if (msg.contains("getMaxNumberLength")) {
        return ParseLimits.tooLong("a number", "MAX_NUMBER_LENGTH", ParseLimits.MAX_NUMBER_LENGTH);
      }
      if (msg.contains("getMaxDocumentLength")) {
        return ParseLimits.tooLong("the text", "MAX_TEXT_LENGTH", ParseLimits.MAX_TEXT_LENGTH);
      }
    }
    int nl = msg.indexOf('\n');
    return "malformed JSON: " + (nl < 0 ? msg : msg.substring(0, nl));
  }
}
