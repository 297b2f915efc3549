import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the 13 typed array classes of {@code dev.ireestubs.ndarray} (FloatArray, IntArray, ...)
 * from one template, so that a fix to them is made once. Run by the build (exec-maven-plugin, phase
 * generate-sources) with the JDK's single-file source launcher:
 *
 * <pre>java GenerateArrays.java TEMPLATE OUTPUT_DIR</pre>
 *
 * <p>The template is Java with three kinds of markup: {@code {{name}}} is replaced by the class's
 * value for {@code name} (the table in {@link #specs()}); lines {@code //#if flag}, {@code //#if
 * !flag}, {@code //#elif flag}, {@code //#else} and {@code //#end} keep or drop the lines between
 * them by the class's flags; {@code //#for rank 2 3 4} ... {@code //#end} repeats its lines once per
 * value, with {@code {{rank}}} and {@code {{dims}}} ({@code [][]} for 2) bound. Javadoc paragraphs
 * are written one per line in the template and wrapped at 100 columns here. A file is rewritten
 * only when its text changes, so incremental builds stay incremental.
 */
public final class GenerateArrays {

  private static final int WIDTH = 100;

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: java GenerateArrays.java TEMPLATE OUTPUT_DIR");
    }
    List<String> template = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    Path dir = Path.of(args[1], "dev", "ireestubs", "ndarray");
    Files.createDirectories(dir);
    for (Spec spec : specs()) {
      List<String> out = new ArrayList<>();
      render(template, 0, template.size(), spec, new HashMap<>(), out);
      String text = wrapJavadoc(out);
      Path file = dir.resolve(spec.vars.get("Class") + ".java");
      if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
        Files.writeString(file, text, StandardCharsets.UTF_8);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The classes

  /** One array class: its template values and flags. */
  static final class Spec {
    final Map<String, String> vars = new LinkedHashMap<>();
    final Set<String> flags;

    Spec(Set<String> flags, String... pairs) {
      this.flags = flags;
      for (int i = 0; i < pairs.length; i += 2) {
        vars.put(pairs[i], pairs[i + 1]);
      }
    }
  }

  /** Values every class has, derived from the few a class states. */
  private static Spec spec(Set<String> flags, String... pairs) {
    Spec s = new Spec(flags, pairs);
    Map<String, String> v = s.vars;
    String raw = v.get("raw");
    int bytes = Map.of("byte", 1, "short", 2, "int", 4, "float", 4, "long", 8, "double", 8).get(raw);
    v.put("bytes", Integer.toString(bytes));
    v.putIfAbsent("Acc", bytes == 1 ? "" : Character.toUpperCase(raw.charAt(0)) + raw.substring(1));
    int shift = Integer.numberOfTrailingZeros(bytes);
    v.put("byteIndex", shift == 0 ? "i" : "i << " + shift);
    v.putIfAbsent("HOLDS", v.get("TYPE"));
    v.putIfAbsent("newA", "A new array");
    v.putIfAbsent("decode", "raw(i)");
    v.putIfAbsent("scalarDoc", "A new rank-0 array (shape {@code []}) holding {@code value}.");
    for (String optional :
        List.of("inNote", "getNote", "setNote", "zerosNote", "viewNote", "encodeDoc", "encode")) {
      v.putIfAbsent(optional, optional.equals("encode") ? "value" : "");
    }
    if (flags.contains("buffer")) {
      String buffer = v.get("Buffer");
      v.put("aBuffer", (buffer.startsWith("I") ? "An {@link " : "A {@link ") + buffer + "}");
    }
    flags = new java.util.HashSet<>(flags);
    if (bytes > 1) {
      flags.add("multiByte");
    }
    if (flags.contains("bulk") || flags.contains("byteBulk")) {
      flags.add("direct");
    }
    Spec done = new Spec(Set.copyOf(flags));
    done.vars.putAll(v);
    return done;
  }

  /** Signed integer classes: signless by default, {@code asSigned()} relabels. */
  private static Spec signed(String cls, String value, String Buffer, int bits, String hex) {
    String i = "i" + bits;
    String si = "si" + bits;
    Set<String> flags =
        Buffer == null ? Set.of("signed", "byteBulk") : Set.of("signed", "bulk", "buffer", "asBuffer");
    String newA = "A new signless {@code " + i + "} array";
    List<String> pairs =
        new ArrayList<>(
            List.of(
                "Class", cls,
                "value", value,
                "raw", value,
                "TYPE", "I" + bits,
                "HOLDS", "SI" + bits,
                "I", "I" + bits,
                "SI", "SI" + bits,
                "i", i,
                "si", si,
                "iHal", "0x100000" + hex,
                "siHal", "0x110000" + hex,
                "newA", newA,
                "key", "v",
                "format", boxed(value) + ".toString(v)",
                "classDoc",
                    "An n-dimensional array of "
                        + bits
                        + "-bit integer elements, read and written as Java {@code "
                        + value
                        + "} (two's complement); element type {@code "
                        + i
                        + "} (HAL {@code INT_"
                        + bits
                        + "}, {@code 0x100000"
                        + hex
                        + "}) or {@code "
                        + si
                        + "} (HAL {@code SINT_"
                        + bits
                        + "}, {@code 0x110000"
                        + hex
                        + "}).",
                "scalarDoc",
                    "A new signless {@code " + i + "} rank-0 array (shape {@code []}) holding {@code value}.",
                "viewDoc",
                    "{@code "
                        + i
                        + "} or {@code "
                        + si
                        + "} elements"
                        + (bits == 8 ? " (or {@code i1}, whose bytes it reads as 0 and 1, typed {@code si8})" : ""),
                "viewNote", " The element type (signless or signed) is kept."));
    if (Buffer != null) {
      pairs.add("Buffer");
      pairs.add(Buffer);
    }
    return spec(flags, pairs.toArray(new String[0]));
  }

  /** Unsigned integer classes narrower than 64 bits: values in a wider Java type, checked. */
  /** The wrapper class of a primitive type name: {@code Integer} for {@code int}, else capitalised. */
  private static String boxed(String primitive) {
    return primitive.equals("int")
        ? "Integer"
        : Character.toUpperCase(primitive.charAt(0)) + primitive.substring(1);
  }

  private static Spec unsigned(
      String cls, String value, String raw, int bits, String hex, String mask, String max, String bitsDoc) {
    String ui = "ui" + bits;
    String range = "0.." + max;
    return spec(
        Set.of("checked", "bits"),
        "Class", cls,
        "value", value,
        "raw", raw,
        "TYPE", "UI" + bits,
        "mask", mask,
        "range", range,
        "bitsNoun", "raw bits",
        "key", "v",
        "format", boxed(value) + ".toString(v)",
        "decode", "(raw(i) & " + mask + ")",
        "classDoc",
            "An n-dimensional array of {@code " + ui + "} (unsigned " + bits
                + "-bit integer) elements; HAL element type {@code UINT_" + bits + "} ({@code 0x120000" + hex
                + "}).\n *\n * <p>Elements read and write as {@code " + value + "} values in " + range + ". "
                + bitsDoc,
        "inNote", " Every value must be in " + range + "; use {@link #ofBits} for " + (bits == 8 ? "bytes" : "raw {@code " + raw + "}s") + ".",
        "getNote", ", as an {@code " + value + "} in " + range,
        "setNote", ", which must be in " + range,
        "scalarDoc", "A new rank-0 array (shape {@code []}) holding {@code value}, which must be in " + range + ".",
        "viewDoc",
            "{@code " + ui + "} elements, or signless {@code i" + bits
                + "} ones (as IREE's runtime returns integers whatever their signedness; the JSON reflection drops it too), read as unsigned",
        "encodeDoc", ", checked to be in range");
  }

  private static Spec float16(String cls, String type, String codec, String name, String exactly) {
    String round = "rounded to the nearest {@code " + name + "} (ties to even; see {@link " + codec + "#fromFloat})";
    return spec(
        Set.of("bits"),
        "Class", cls,
        "value", "float",
        "raw", "short",
        "TYPE", type,
        "bitsNoun", "raw bit pattern",
        "key", "Float.floatToIntBits(v)",
        "format", "Float.toString(v)",
        "decode", codec + ".toFloat(raw(i))",
        "encode", codec + ".fromFloat(value)",
        "classDoc", exactly,
        "inNote", " Values are " + round + ".",
        "getNote", ", converted exactly to {@code float}",
        "setNote", ", " + round,
        "scalarDoc", "A new rank-0 array (shape {@code []}) holding {@code value}, " + round + ".",
        "viewDoc", "{@code " + name + "} elements",
        "encodeDoc", ", " + round);
  }

  static List<Spec> specs() {
    return List.of(
        spec(
            Set.of("bulk", "buffer", "asBuffer"),
            "Class", "FloatArray",
            "value", "float",
            "raw", "float",
            "TYPE", "F32",
            "Buffer", "FloatBuffer",
            "key", "Float.floatToIntBits(v)",
            "format", "Float.toString(v)",
            "classDoc",
                "An n-dimensional array of {@code f32} (IEEE 754 binary32) elements, read and written as Java {@code float}; HAL element type {@code FLOAT_32} ({@code 0x21000020}).",
            "viewDoc", "{@code f32} elements"),
        spec(
            Set.of("bulk", "buffer", "asBuffer"),
            "Class", "DoubleArray",
            "value", "double",
            "raw", "double",
            "TYPE", "F64",
            "Buffer", "DoubleBuffer",
            "key", "Double.doubleToLongBits(v)",
            "format", "Double.toString(v)",
            "classDoc",
                "An n-dimensional array of {@code f64} (IEEE 754 binary64) elements, read and written as Java {@code double}; HAL element type {@code FLOAT_64} ({@code 0x21000040}).",
            "viewDoc", "{@code f64} elements"),
        float16(
            "HalfArray",
            "F16",
            "Float16",
            "f16",
            "An n-dimensional array of {@code f16} (IEEE 754 binary16, \"half\") elements; HAL element type {@code FLOAT_16} ({@code 0x21000010}).\n *\n * <p>Elements read as {@code float} (exactly: every half is a float) and are written from {@code float} rounding to nearest, ties to even, as {@link Float16} describes. The raw 16-bit patterns are available as {@code short} through the {@code Bits} methods, for data that is already half precision."),
        float16(
            "BFloat16Array",
            "BF16",
            "BFloat16",
            "bf16",
            "An n-dimensional array of {@code bf16} (\"brain float\") elements; HAL element type {@code BFLOAT_16} ({@code 0x22000010}).\n *\n * <p>Elements read as {@code float} (exactly: every bf16 is the top half of a float) and are written from {@code float} rounding to nearest, ties to even, as {@link BFloat16} describes. The raw 16-bit patterns are available as {@code short} through the {@code Bits} methods."),
        spec(
            Set.of(),
            "Class", "BoolArray",
            "value", "boolean",
            "raw", "byte",
            "TYPE", "I1",
            "key", "(v ? 1L : 0L)",
            "format", "Boolean.toString(v)",
            "decode", "(raw(i) != 0)",
            "encode", "(value ? (byte) 1 : (byte) 0)",
            "classDoc",
                "An n-dimensional array of {@code i1} (boolean) elements, one byte each: 1 for {@code true} and 0 for {@code false}, as IREE stores them; HAL element type {@code BOOL_8} ({@code 0x13000008}). Any non-zero byte (from memory written elsewhere) reads as {@code true}, and compares equal to 1.",
            "zerosNote", " (false)",
            "getNote", "; any non-zero byte reads as {@code true}",
            "scalarDoc", "A new rank-0 array (shape {@code []}) holding {@code value}.",
            "viewDoc",
                "{@code i1} elements or 8-bit integers ({@code i8}, {@code si8}, {@code ui8}: IREE stores {@code i1} tensors in bytes and may type an {@code i1} result so), read as booleans (any non-zero byte is {@code true})",
            "encodeDoc", ": 1 for true, 0 for false"),
        signed("ByteArray", "byte", null, 8, "08"),
        signed("ShortArray", "short", "ShortBuffer", 16, "10"),
        signed("IntArray", "int", "IntBuffer", 32, "20"),
        signed("LongArray", "long", "LongBuffer", 64, "40"),
        unsigned(
            "UByteArray", "int", "byte", 8, "08", "0xff", "255",
            "The {@code Bits} methods read and write the raw bytes as Java {@code byte}s (so 255 is {@code (byte) -1}), which is the natural form for image data and other bytes."),
        unsigned(
            "UShortArray", "int", "short", 16, "10", "0xffff", "65535",
            "The {@code Bits} methods read and write the raw 16 bits as Java {@code short}s (so 65535 is {@code (short) -1})."),
        unsigned(
            "UIntArray", "long", "int", 32, "20", "0xffffffffL", "4294967295",
            "The {@code Bits} methods read and write the raw 32 bits as Java {@code int}s (so 4294967295 is {@code -1}), as {@link Integer#toUnsignedLong} and friends use them."),
        spec(
            Set.of("bulk", "buffer", "asBuffer", "unsignedString"),
            "Class", "ULongArray",
            "value", "long",
            "raw", "long",
            "TYPE", "UI64",
            "Buffer", "LongBuffer",
            "key", "v",
            "format", "Long.toUnsignedString(v)",
            "classDoc",
                "An n-dimensional array of {@code ui64} (unsigned 64-bit integer) elements; HAL element type {@code UINT_64} ({@code 0x12000040}).\n *\n * <p>Elements read and write as the 64 bits of the unsigned value in a {@code long}, the way {@link Long#toUnsignedString(long)}, {@link Long#parseUnsignedLong(String)}, {@link Long#compareUnsigned} and {@link Long#divideUnsigned} treat them: 2<sup>64</sup> - 1 is {@code -1L}. {@link #getString} gives the decimal value, and {@link #toString()} prints unsigned values.",
            "inNote", " Values from 2<sup>63</sup> up are given as negative {@code long}s, as {@link Long#parseUnsignedLong} returns them.",
            "getNote", ", as the 64 bits of the unsigned value (see {@link #getString} for its decimal form)",
            "setNote", ", given as its 64 bits (values from 2<sup>63</sup> up are negative {@code long}s, as {@link Long#parseUnsignedLong} returns them)",
            "scalarDoc", "A new rank-0 array (shape {@code []}) holding {@code value}, given as its 64 bits (values from 2<sup>63</sup> up are negative {@code long}s, as {@link Long#parseUnsignedLong} returns them).",
            "viewDoc",
                "{@code ui64} elements, or signless {@code i64} ones (as IREE's runtime returns integers whatever their signedness; the JSON reflection drops it too), read as unsigned"));
  }

  // ---------------------------------------------------------------------------------------------
  // The template

  private static final Pattern VAR = Pattern.compile("\\{\\{(\\w+)\\}\\}");

  /** Renders template lines {@code [from, to)} into {@code out}. */
  private static void render(
      List<String> t, int from, int to, Spec spec, Map<String, String> bound, List<String> out) {
    int i = from;
    while (i < to) {
      String line = t.get(i);
      String directive = line.strip();
      if (directive.startsWith("//#if ") || directive.startsWith("//#for ")) {
        int end = matchingEnd(t, i, to);
        if (directive.startsWith("//#for ")) {
          String[] parts = directive.substring(7).trim().split("\\s+");
          for (int k = 1; k < parts.length; k++) {
            Map<String, String> inner = new HashMap<>(bound);
            inner.put(parts[0], parts[k]);
            inner.put("dims", "[]".repeat(Integer.parseInt(parts[k])));
            inner.put("sub", "[]".repeat(Integer.parseInt(parts[k]) - 1));
            render(t, i + 1, end, spec, inner, out);
          }
        } else {
          renderIf(t, i, end, spec, bound, out);
        }
        i = end + 1;
        continue;
      }
      out.add(substitute(line, spec, bound, i));
      i++;
    }
  }

  /** An {@code //#if} chain from line {@code start} to its {@code //#end} at {@code end}. */
  private static void renderIf(
      List<String> t, int start, int end, Spec spec, Map<String, String> bound, List<String> out) {
    List<Integer> branches = new ArrayList<>(); // lines of //#if, //#elif, //#else at depth 0
    int depth = 0;
    for (int i = start; i < end; i++) {
      String d = t.get(i).strip();
      if (i > start && (d.startsWith("//#if ") || d.startsWith("//#for "))) {
        depth++;
      } else if (d.equals("//#end")) {
        depth--;
      } else if (depth == 0 && (i == start || d.startsWith("//#elif ") || d.equals("//#else"))) {
        branches.add(i);
      }
    }
    branches.add(end);
    for (int b = 0; b + 1 < branches.size(); b++) {
      String d = t.get(branches.get(b)).strip();
      boolean taken =
          d.equals("//#else") || holds(spec, d.substring(d.indexOf(' ') + 1).trim());
      if (taken) {
        render(t, branches.get(b) + 1, branches.get(b + 1), spec, bound, out);
        return;
      }
    }
  }

  private static boolean holds(Spec spec, String condition) {
    return condition.startsWith("!")
        ? !spec.flags.contains(condition.substring(1))
        : spec.flags.contains(condition);
  }

  private static int matchingEnd(List<String> t, int start, int to) {
    int depth = 0;
    for (int i = start; i < to; i++) {
      String d = t.get(i).strip();
      if (d.startsWith("//#if ") || d.startsWith("//#for ")) {
        depth++;
      } else if (d.equals("//#end") && --depth == 0) {
        return i;
      }
    }
    throw new IllegalStateException("template line " + (start + 1) + ": no matching //#end");
  }

  private static String substitute(String line, Spec spec, Map<String, String> bound, int lineNo) {
    Matcher m = VAR.matcher(line);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value = bound.containsKey(name) ? bound.get(name) : spec.vars.get(name);
      if (value == null) {
        throw new IllegalStateException(
            "template line " + (lineNo + 1) + ": " + spec.vars.get("Class") + " has no value for {{" + name + "}}");
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Javadoc wrapping

  /** The lines joined, with every Javadoc text line wrapped at {@link #WIDTH} columns. */
  static String wrapJavadoc(List<String> rendered) {
    // Values may hold line breaks (multi-paragraph class comments): split them first.
    List<String> lines = new ArrayList<>();
    for (String l : rendered) {
      lines.addAll(List.of(l.split("\n", -1)));
    }
    StringBuilder sb = new StringBuilder();
    boolean inDoc = false;
    boolean pre = false;
    for (String line : lines) {
      String s = line.strip();
      if (!inDoc && s.startsWith("/**") && s.endsWith("*/") && line.length() > WIDTH) {
        String indent = line.substring(0, line.indexOf("/**"));
        sb.append(indent).append("/**\n");
        wrap(sb, indent + " * ", s.substring(3, s.length() - 2).strip());
        sb.append(indent).append(" */\n");
        continue;
      }
      if (!inDoc && s.startsWith("/**") && !s.endsWith("*/")) {
        inDoc = true;
        sb.append(line).append('\n');
        continue;
      }
      if (inDoc && s.equals("*/")) {
        inDoc = false;
        sb.append(line).append('\n');
        continue;
      }
      if (inDoc && s.startsWith("*") && line.length() > WIDTH && !pre) {
        String indent = line.substring(0, line.indexOf('*')) + "* ";
        wrap(sb, indent, s.substring(1).strip());
        continue;
      }
      if (inDoc && s.contains("<pre>")) {
        pre = !s.contains("</pre>");
      } else if (inDoc && s.contains("</pre>")) {
        pre = false;
      }
      sb.append(line.isBlank() ? "" : line).append('\n');
    }
    return sb.toString();
  }

  /** One paragraph or block tag, words filled to the width; block tags continue 4 deeper. */
  private static void wrap(StringBuilder sb, String prefix, String text) {
    String continuation = text.startsWith("@") ? prefix + "    " : prefix;
    StringBuilder line = new StringBuilder(prefix);
    boolean first = true;
    for (String word : text.split(" +")) {
      if (!first && line.length() + 1 + word.length() > WIDTH) {
        sb.append(line).append('\n');
        line = new StringBuilder(continuation).append(word);
      } else {
        if (!first) {
          line.append(' ');
        }
        line.append(word);
      }
      first = false;
    }
    sb.append(line).append('\n');
  }

  private GenerateArrays() {}
}
