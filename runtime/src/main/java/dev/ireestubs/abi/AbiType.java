package dev.ireestubs.abi;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One node of a type record tree: what one argument, result or nested value of an IREE function is.
 * Every reflection format ({@code iree.abi} JSON, {@code iree.abi.declaration}, calling
 * conventions, V0 raw signatures) parses into these records.
 *
 * <p>The records are immutable and compare by value. {@code toString()} gives a short readable form
 * for error messages ({@code tensor<2x?xf32>}, {@code sdict{a: i32}}); the format printers ({@link
 * AbiJson}, ...) give each format's own text.
 */
public sealed interface AbiType {

  /**
   * How the value travels in the VM calling convention: {@code i I f F} for VM values, {@code r}
   * for refs; empty when the type is not a VM value or ref of one known kind ({@code f16} scalars,
   * {@link Any}, {@link Unknown}, {@link Unsupported}).
   *
   * @return the slot kind, or empty when the type has no single one
   */
  Optional<VmKind> vmKind();

  /**
   * A scalar VM value: JSON {@code "i32"}, MLIR {@code i32}/{@code index}, V0 {@code S}.
   *
   * @param element the value's element type, such as {@code i32} or {@code f64}
   */
  record Scalar(ElementType element) implements AbiType {
    /**
     * Refuses a null element type.
     *
     * @param element the value's element type, such as {@code i32} or {@code f64}
     */
    public Scalar {
      Objects.requireNonNull(element, "element");
    }

    @Override
    public Optional<VmKind> vmKind() {
      if (element.isInteger() || element.kind() == ElementType.Kind.BOOLEAN) {
        if (element.bits() <= 32) {
          return Optional.of(VmKind.I32);
        }
        return element.bits() <= 64 ? Optional.of(VmKind.I64) : Optional.empty();
      }
      if (element.equals(ElementType.F32)) {
        return Optional.of(VmKind.F32);
      }
      if (element.equals(ElementType.F64)) {
        return Optional.of(VmKind.F64);
      }
      return Optional.empty();
    }

    @Override
    public String toString() {
      return element.mlirName();
    }
  }

  /**
   * An n-dimensional array, passed as a HAL buffer view: JSON {@code ["ndarray", E, rank,
   * dims...]}, MLIR {@code tensor<...>} or {@code !hal.buffer_view}, V0 {@code B}. The element is
   * {@link ElementType#UNKNOWN} when not stated.
   *
   * @param element the element type, {@link ElementType#UNKNOWN} when the reflection does not say
   * @param shape the dims, static or dynamic, or unranked
   */
  record NdArray(ElementType element, Shape shape) implements AbiType {
    /**
     * Refuses a null element type or shape.
     *
     * @param element the element type, {@link ElementType#UNKNOWN} when the reflection does not say
     * @param shape the dims, static or dynamic, or unranked
     */
    public NdArray {
      Objects.requireNonNull(element, "element");
      Objects.requireNonNull(shape, "shape");
    }

    /**
     * A buffer view of unknown element type and rank ({@code !hal.buffer_view}).
     *
     * @return an array type that accepts any buffer view
     */
    public static NdArray anyBufferView() {
      return new NdArray(ElementType.UNKNOWN, Shape.unranked());
    }

    @Override
    public Optional<VmKind> vmKind() {
      return Optional.of(VmKind.REF);
    }

    @Override
    public String toString() {
      if (!element.isKnown() && !shape.isRanked()) {
        return "!hal.buffer_view";
      }
      String dims = shape.toString();
      return "tensor<" + (dims.isEmpty() ? "" : dims + "x") + element.mlirName() + ">";
    }
  }

  /** Whether a {@link Sequence} is a list or a tuple; only the Java-side type differs. */
  enum SequenceKind {
    /** JSON {@code slist}. */
    LIST("slist"),
    /** JSON {@code stuple}. */
    TUPLE("stuple");

    private final String tag;

    SequenceKind(String tag) {
      this.tag = tag;
    }

    /**
     * The JSON tag.
     *
     * @return {@code slist} or {@code stuple}
     */
    public String tag() {
      return tag;
    }
  }

  /**
   * A fixed-length structure of positional values ({@code slist} or {@code stuple}), passed as a VM
   * variant list holding one value per element, in order.
   *
   * @param kind whether it is a list or a tuple
   * @param elements the type of each position, in order
   */
  record Sequence(SequenceKind kind, List<AbiType> elements) implements AbiType {
    /**
     * Refuses a null kind and copies the elements.
     *
     * @param kind whether it is a list or a tuple
     * @param elements the type of each position, in order
     */
    public Sequence {
      Objects.requireNonNull(kind, "kind");
      elements = List.copyOf(elements);
    }

    @Override
    public Optional<VmKind> vmKind() {
      return Optional.of(VmKind.REF);
    }

    @Override
    public String toString() {
      return elements.stream()
          .map(AbiType::toString)
          .collect(Collectors.joining(", ", kind.tag() + "[", "]"));
    }
  }

  /**
   * One key of a {@link Dict}.
   *
   * @param key the key, as the module spells it
   * @param type the type of the value under the key
   */
  record Entry(String key, AbiType type) {
    /**
     * Refuses a null key or type.
     *
     * @param key the key, as the module spells it
     * @param type the type of the value under the key
     */
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(type, "type");
    }

    @Override
    public String toString() {
      return key + ": " + type;
    }
  }

  /**
   * A structure with string keys ({@code sdict}), passed as a VM variant list of the values only,
   * in the order the entries are listed (descriptor order; IREE's compiler sorts keys byte-wise).
   *
   * @param entries the keys and their types, in descriptor order
   */
  record Dict(List<Entry> entries) implements AbiType {
    /**
     * Copies the entries and refuses a key that appears twice.
     *
     * @param entries the keys and their types, in descriptor order
     */
    public Dict {
      entries = List.copyOf(entries);
      Set<String> seen = new HashSet<>();
      for (Entry e : entries) {
        if (!seen.add(e.key())) {
          throw new IllegalArgumentException("duplicate sdict key '" + e.key() + "'");
        }
      }
    }

    /**
     * The Java name a key also matches, wherever keys meet record components (the processor, the
     * dynamic invoker, {@code inspect}): the camelCase form of a snake_case key ({@code class_ids}
     * becomes {@code classIds}); leading underscores stay; a key without underscores is itself.
     *
     * @param key a dict key as the module spells it
     * @return the key in camelCase, or the key itself when it has no underscore to remove
     */
    public static String camelCase(String key) {
      if (key.indexOf('_') < 0) {
        return key;
      }
      StringBuilder sb = new StringBuilder(key.length());
      boolean upper = false;
      for (int i = 0; i < key.length(); i++) {
        char c = key.charAt(i);
        if (c == '_' && sb.length() > 0) {
          upper = true;
        } else {
          sb.append(upper ? Character.toUpperCase(c) : c);
          upper = false;
        }
      }
      return sb.toString();
    }

    /**
     * The keys, in descriptor order.
     *
     * @return every key, unmodifiable
     */
    public List<String> keys() {
      // A loop, not a stream: the annotation processor asks for the keys of every dict it binds,
      // mostly in interpreted code.
      String[] keys = new String[entries.size()];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = entries.get(i).key();
      }
      return List.of(keys);
    }

    /**
     * The entry for {@code key}, if any.
     *
     * @param key the key to look up
     * @return the key's entry, or empty when the dict has no such key
     */
    public Optional<Entry> entry(String key) {
      return entries.stream().filter(e -> e.key().equals(key)).findFirst();
    }

    /**
     * True when the keys are in strictly ascending byte-wise (UTF-8) order, as IREE's compiler
     * writes them.
     *
     * @return true for the order the compiler writes, which the VM list's order follows
     */
    public boolean isSorted() {
      for (int i = 1; i < entries.size(); i++) {
        if (compareBytewise(entries.get(i - 1).key(), entries.get(i).key()) >= 0) {
          return false;
        }
      }
      return true;
    }

    /**
     * Byte-wise comparison of the UTF-8 encodings, as C++ {@code std::string <} does.
     *
     * @param a one string
     * @param b the other string
     * @return a negative number, zero or a positive number as {@code a} sorts before, with or after
     *     {@code b}
     */
    public static int compareBytewise(String a, String b) {
      byte[] x = a.getBytes(StandardCharsets.UTF_8);
      byte[] y = b.getBytes(StandardCharsets.UTF_8);
      int n = Math.min(x.length, y.length);
      for (int i = 0; i < n; i++) {
        int c = Integer.compare(x[i] & 0xFF, y[i] & 0xFF);
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(x.length, y.length);
    }

    @Override
    public Optional<VmKind> vmKind() {
      return Optional.of(VmKind.REF);
    }

    @Override
    public String toString() {
      return entries.stream().map(Entry::toString).collect(Collectors.joining(", ", "sdict{", "}"));
    }
  }

  /**
   * A list of any length whose elements all have one type: JSON {@code py_homogeneous_list}, MLIR
   * {@code !util.list<T>}. The element is {@link Any} for a variant list ({@code list<?>}).
   *
   * @param element the type every element has
   */
  record HomogeneousList(AbiType element) implements AbiType {
    /**
     * Refuses a null element type.
     *
     * @param element the type every element has
     */
    public HomogeneousList {
      Objects.requireNonNull(element, "element");
    }

    @Override
    public Optional<VmKind> vmKind() {
      return Optional.of(VmKind.REF);
    }

    @Override
    public String toString() {
      return "list<" + element + ">";
    }
  }

  /**
   * A root argument with a keyword name: JSON {@code ["named", name, T]}. It takes the same VM slot
   * as an unnamed argument; the name only lets callers pass it by keyword.
   *
   * @param name the keyword the argument is passed by
   * @param type the argument's type, which is never itself named
   */
  record Named(String name, AbiType type) implements AbiType {
    /**
     * Refuses nulls and a named type inside another.
     *
     * @param name the keyword the argument is passed by
     * @param type the argument's type, which is never itself named
     */
    public Named {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      if (type instanceof Named) {
        throw new IllegalArgumentException("named types do not nest");
      }
    }

    @Override
    public Optional<VmKind> vmKind() {
      return type.vmKind();
    }

    @Override
    public String toString() {
      return "named " + name + ": " + type;
    }
  }

  /**
   * An opaque VM ref of a named type ({@code hal.buffer}, {@code hal.fence}, {@code hal.device}),
   * or of any type when {@link #refType()} is {@code "?"} (V0 {@code O}, cconv {@code r}).
   *
   * @param refType the VM type name, such as {@code hal.fence}, or {@link #ANY} when not known
   */
  record Ref(String refType) implements AbiType {
    /** The type name of a ref whose type is not known. */
    public static final String ANY = "?";

    /**
     * Refuses a null ref type.
     *
     * @param refType the VM type name, such as {@code hal.fence}, or {@link #ANY} when not known
     */
    public Ref {
      Objects.requireNonNull(refType, "refType");
    }

    /**
     * A ref of unknown type.
     *
     * @return a ref whose type name is {@link #ANY}
     */
    public static Ref any() {
      return new Ref(ANY);
    }

    @Override
    public Optional<VmKind> vmKind() {
      return Optional.of(VmKind.REF);
    }

    @Override
    public String toString() {
      return ANY.equals(refType) ? "ref" : "!" + refType;
    }
  }

  /**
   * Any VM value or ref, decoded by what arrives: JSON {@code null}, the {@code ?} of a variant
   * list. The reference runtime decodes such results dynamically.
   */
  record Any() implements AbiType {
    @Override
    public Optional<VmKind> vmKind() {
      return Optional.empty();
    }

    @Override
    public String toString() {
      return "any";
    }
  }

  /**
   * A type the compiler could not describe: JSON {@code "unknown"} (index, complex or custom
   * types), V0 {@code U}.
   */
  record Unknown() implements AbiType {
    @Override
    public Optional<VmKind> vmKind() {
      return Optional.empty();
    }

    @Override
    public String toString() {
      return "unknown";
    }
  }

  /**
   * A record that is well-formed text but outside what this library supports: a tag seen in real
   * data but not in the spec ({@code sdict_kwargs}, {@code py_uniform_list}, {@code pytuple},
   * {@code py_uniform_dict}, {@code pystr}), a {@code named} below the root, or an inconsistent
   * descriptor such as an ndarray whose rank and dims disagree. It keeps its source text and the
   * format that text is in, so that the printer of that format writes it back exactly ({@link
   * AbiJson} writes a JSON record as the JSON it was, and any other text as a JSON string; {@link
   * MlirTypes} writes only declaration text); binding it to a Java type is an error that quotes
   * {@link #reason()}.
   *
   * @param tag the record's tag (or the primitive string)
   * @param source the record's text in its own format: for {@link ReflectionFormat#IREE_ABI_JSON},
   *     the canonical JSON of one value (as {@link AbiJson} parsed it: no whitespace, keys in
   *     source order, numbers as written)
   * @param format the format of {@code source}
   * @param reason why it is unsupported, as a sentence fragment
   */
  record Unsupported(String tag, String source, ReflectionFormat format, String reason)
      implements AbiType {
    /**
     * Refuses null components.
     *
     * @param tag the record's tag (or the primitive string)
     * @param source the record's text in its own format: for {@link
     *     ReflectionFormat#IREE_ABI_JSON}, the canonical JSON of one value (as {@link AbiJson}
     *     parsed it: no whitespace, keys in source order, numbers as written)
     * @param format the format of {@code source}
     * @param reason why it is unsupported, as a sentence fragment
     */
    public Unsupported {
      Objects.requireNonNull(tag, "tag");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(format, "format");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Optional<VmKind> vmKind() {
      return Optional.empty();
    }

    @Override
    public String toString() {
      return "unsupported " + source + " (" + reason + ")";
    }
  }
}
