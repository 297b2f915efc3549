package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.processor.printing.Code;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Writes a function's signature as code: constructor calls of the {@code dev.ireestubs.abi} model,
 * with the descriptors the marshalling code uses as named constants that the signature is built
 * from (so each is spelled once). Long lists (the keys of a large {@code sdict}, the dimensions of
 * a high rank) are built in parts, each a method of its own ({@link Part}), so that no method nears
 * the 64 KiB code limit; every estimate of code and constant-pool size is here.
 */
final class SignatureCode {

  /** A list longer than this many elements is built in parts. */
  static final int PART_ELEMENTS = 500;

  /** A list whose code would take more bytes than this is built in parts. */
  static final int PART_BYTES = 16_000;

  static final ClassName FUNCTION_SIGNATURE =
      ClassName.get("dev.ireestubs.abi", "FunctionSignature");
  static final ClassName CALLING_MODEL = FUNCTION_SIGNATURE.nestedClass("CallingModel");
  static final ClassName REFLECTION_FORMAT = ClassName.get("dev.ireestubs.abi", "ReflectionFormat");
  static final ClassName ABI_TYPE = ClassName.get("dev.ireestubs.abi", "AbiType");
  static final ClassName ELEMENT_TYPE = ClassName.get("dev.ireestubs.abi", "ElementType");
  static final ClassName SHAPE = ClassName.get("dev.ireestubs.abi", "Shape");
  static final ClassName OPTIONAL_INT = ClassName.get("java.util", "OptionalInt");
  static final ClassName LIST = ClassName.get("java.util", "List");
  static final ClassName STUB_CONSTANTS = ClassName.get("dev.ireestubs.internal", "StubConstants");

  /** Code and constant-pool size, estimated from above. */
  record Cost(int bytes, int constants) {
    static final Cost NONE = new Cost(0, 0);

    Cost plus(Cost other) {
      return new Cost(bytes + other.bytes, constants + other.constants);
    }

    Cost plus(int moreBytes, int moreConstants) {
      return new Cost(bytes + moreBytes, constants + moreConstants);
    }
  }

  /** An expression and what it costs where it is written. */
  record Expr(Code code, Cost cost) {}

  /**
   * A named constant of the signature's holder: a descriptor, the signature, or a value derived
   * from them.
   */
  record Constant(TypeName type, String name, Code initializer, Cost cost) {}

  /** A method that builds one part of a long list or shape; it goes in a parts holder. */
  record Part(TypeName type, Code body, Cost cost) {}

  /**
   * The constants already written in one holder, by value: a descriptor or signature equal to one
   * of them is that constant, used where it is needed, rather than built again or given a second
   * name (modules repeat signatures a great deal).
   */
  static final class Shared {
    private final Map<AbiType, String> descriptors = new HashMap<>();
    private final Map<FunctionSignature, String> signatures = new HashMap<>();
  }

  private final Function<String, String> names;
  private final Function<Part, Code> placePart;
  private final Shared shared;
  private final Map<AbiType, String> wanted;
  private final IdentityHashMap<AbiType, Code> emitted = new IdentityHashMap<>();
  private final IdentityHashMap<AbiType, String> emittedNames = new IdentityHashMap<>();
  private final List<Constant> constants = new ArrayList<>();

  /**
   * @param names allocates a constant or method name from a suggestion (unique in the stub)
   * @param placePart puts a part method in a parts holder and returns how to call it
   * @param wanted the nodes (by identity) the marshalling code names, with a suggested name each
   * @param shared the constants of the holder written so far
   */
  SignatureCode(
      Function<String, String> names,
      Function<Part, Code> placePart,
      Map<AbiType, String> wanted,
      Shared shared) {
    this.names = names;
    this.placePart = placePart;
    this.wanted = wanted;
    this.shared = shared;
  }

  /** The constants emitted so far, in the order they must be initialized. */
  List<Constant> constants() {
    return constants;
  }

  /**
   * The constant for {@code node}: emitted once (with what it contains), then referenced. A node
   * not in {@code wanted} gets {@code name} as its suggestion.
   */
  String constant(AbiType node, String name) {
    String ref = emittedNames.get(node);
    if (ref == null) {
      wanted.putIfAbsent(node, name);
      type(node);
      ref = emittedNames.get(node);
    }
    return ref;
  }

  /** Adds a constant computed from others, e.g. an sdict's keys. */
  String derived(TypeName type, String suggestion, Code initializer, Cost cost) {
    String name = names.apply(suggestion);
    constants.add(new Constant(type, name, initializer, cost.plus(3, 3)));
    return name;
  }

  /**
   * The signature constant itself, named {@code suggestion}; its descriptors come before it. A
   * signature equal to one already written in the holder is that constant, and so are its
   * descriptors.
   */
  String signature(FunctionSignature s, String suggestion) {
    String same = shared.signatures.get(s);
    if (same != null) {
      // Its descriptors too are equal to constants already written: use those (by value). No
      // alias constant: each would be a field and a class-initializer store for javac to compile.
      s.arguments().forEach(this::nameWanted);
      s.results().forEach(this::nameWanted);
      return same;
    }
    Expr arguments = list(s.arguments(), ABI_TYPE);
    Expr results = list(s.results(), ABI_TYPE);
    Code version =
        s.abiVersion().isPresent()
            ? Code.of("$T.of($L)", OPTIONAL_INT, s.abiVersion().getAsInt())
            : Code.of("$T.empty()", OPTIONAL_INT);
    Code code =
        Code.builder()
            .add("new $T(\n", FUNCTION_SIGNATURE)
            .indent()
            .indent()
            .add("$L,\n", arguments.code())
            .add("$L,\n", results.code())
            .add("$T.$L,\n", REFLECTION_FORMAT, s.format().name())
            .add("$T.$L,\n", CALLING_MODEL, s.model().name())
            .add("$L)", version)
            .unindent()
            .unindent()
            .build();
    String name = names.apply(suggestion);
    constants.add(
        new Constant(
            FUNCTION_SIGNATURE, name, code, arguments.cost().plus(results.cost()).plus(30, 8)));
    shared.signatures.put(s, name);
    return name;
  }

  /** The expression for {@code t}; a wanted node becomes a constant and its name. */
  Expr type(AbiType t) {
    Code ref = emitted.get(t);
    if (ref != null) {
      return new Expr(ref, new Cost(3, 0));
    }
    String suggestion = wanted.get(t);
    if (suggestion == null) {
      return build(t);
    }
    String same = shared.descriptors.get(t);
    String name;
    if (same != null) {
      // An equal descriptor is a constant already: the code names that one.
      name = same;
    } else {
      name = names.apply(suggestion);
      Expr e = build(t);
      constants.add(new Constant(typeOf(t), name, e.code(), e.cost().plus(3, 3)));
      shared.descriptors.put(t, name);
    }
    Code named = Code.of("$N", name);
    emitted.put(t, named);
    emittedNames.put(t, name);
    return new Expr(named, new Cost(3, 3));
  }

  /** Writes the constants of the wanted nodes in {@code t}, without building {@code t} itself. */
  private void nameWanted(AbiType t) {
    if (wanted.containsKey(t)) {
      type(t);
    } else if (t instanceof AbiType.Dict dict) {
      dict.entries().forEach(e -> nameWanted(e.type()));
    } else if (t instanceof AbiType.Sequence sequence) {
      sequence.elements().forEach(this::nameWanted);
    } else if (t instanceof AbiType.HomogeneousList homogeneousList) {
      nameWanted(homogeneousList.element());
    } else if (t instanceof AbiType.Named named) {
      nameWanted(named.type());
    }
  }

  private static TypeName typeOf(AbiType t) {
    return ABI_TYPE.nestedClass(t.getClass().getSimpleName());
  }

  private Expr build(AbiType t) {
    ClassName record = ABI_TYPE.nestedClass(t.getClass().getSimpleName());
    if (t instanceof AbiType.Scalar scalar) {
      Expr e = element(scalar.element());
      return new Expr(Code.of("new $T($L)", record, e.code()), e.cost().plus(7, 0));
    }
    if (t.equals(AbiType.NdArray.anyBufferView())) {
      return new Expr(Code.of("$T.anyBufferView()", record), new Cost(3, 3));
    }
    if (t.equals(AbiType.Ref.any())) {
      return new Expr(Code.of("$T.any()", record), new Cost(3, 3));
    }
    if (t instanceof AbiType.NdArray a) {
      Expr e = element(a.element());
      Expr s = shape(a.shape());
      return new Expr(
          Code.of("new $T($L, $L)", record, e.code(), s.code()),
          e.cost().plus(s.cost()).plus(7, 0));
    }
    if (t instanceof AbiType.Dict dict) {
      Expr entries = entries(dict.entries());
      return new Expr(Code.of("new $T($L)", record, entries.code()), entries.cost().plus(7, 0));
    }
    if (t instanceof AbiType.Sequence q) {
      Expr elements = list(q.elements(), ABI_TYPE);
      return new Expr(
          Code.of(
              "new $T($T.$L, $L)",
              record,
              ABI_TYPE.nestedClass("SequenceKind"),
              q.kind().name(),
              elements.code()),
          elements.cost().plus(10, 0));
    }
    if (t instanceof AbiType.HomogeneousList homogeneousList) {
      Expr e = type(homogeneousList.element());
      return new Expr(Code.of("new $T($L)", record, e.code()), e.cost().plus(7, 0));
    }
    if (t instanceof AbiType.Named n) {
      Expr name = Literals.string(n.name());
      Expr e = type(n.type());
      return new Expr(
          Code.of("new $T($L, $L)", record, name.code(), e.code()),
          name.cost().plus(e.cost()).plus(7, 0));
    }
    if (t instanceof AbiType.Ref ref) {
      Expr name = Literals.string(ref.refType());
      return new Expr(Code.of("new $T($L)", record, name.code()), name.cost().plus(7, 0));
    }
    if (t instanceof AbiType.Unsupported u) {
      Expr tag = Literals.string(u.tag());
      Expr source = Literals.string(u.source());
      Expr reason = Literals.string(u.reason());
      return new Expr(
          Code.of("new $T($L, $L, $L)", record, tag.code(), source.code(), reason.code()),
          tag.cost().plus(source.cost()).plus(reason.cost()).plus(7, 0));
    }
    // Any, Unknown
    return new Expr(Code.of("new $T()", record), new Cost(7, 2));
  }

  private Expr entries(List<AbiType.Entry> entries) {
    List<Expr> items = new ArrayList<>(entries.size());
    for (AbiType.Entry e : entries) {
      Expr key = Literals.string(e.key());
      Expr type = type(e.type());
      items.add(
          new Expr(
              Code.of("new $T($L, $L)", ABI_TYPE.nestedClass("Entry"), key.code(), type.code()),
              key.cost().plus(type.cost()).plus(10, 0)));
    }
    return join(items, ABI_TYPE.nestedClass("Entry"));
  }

  private Expr list(List<AbiType> types, ClassName element) {
    List<Expr> items = new ArrayList<>(types.size());
    for (AbiType t : types) {
      items.add(type(t));
    }
    return join(items, element);
  }

  /** {@code StubConstants.types(a, b, c)}, or when long, the parts joined. */
  private Expr join(List<Expr> items, ClassName element) {
    int bytes = 0;
    for (Expr e : items) {
      bytes += e.cost().bytes() + 5;
    }
    if (items.size() <= PART_ELEMENTS && bytes <= PART_BYTES) {
      return listOf(items, element);
    }
    TypeName listType = ParameterizedTypeName.get(LIST, element);
    List<Code> calls = new ArrayList<>();
    List<Expr> part = new ArrayList<>();
    int partBytes = 0;
    for (Expr e : items) {
      if (!part.isEmpty()
          && (part.size() == PART_ELEMENTS || partBytes + e.cost().bytes() > PART_BYTES)) {
        calls.add(part(listType, listOf(part, element)));
        part = new ArrayList<>();
        partBytes = 0;
      }
      part.add(e);
      partBytes += e.cost().bytes() + 5;
    }
    calls.add(part(listType, listOf(part, element)));
    return new Expr(
        Code.of("$T.join($L)", STUB_CONSTANTS, Code.join(calls, ", ")),
        new Cost(10 + 8 * calls.size(), 4 * calls.size()));
  }

  private Code part(TypeName type, Expr value) {
    return placePart.apply(
        new Part(type, Code.of("return $L", value.code()), value.cost().plus(4, 3)));
  }

  /**
   * {@code StubConstants.types(a, b, c)} or {@code StubConstants.entries(...)}: a non-generic
   * method per element type, which javac resolves without the type inference {@code List.of} needs
   * (for a module of a thousand distinct signatures, about a quarter of javac's time on them).
   */
  private static Expr listOf(List<Expr> items, ClassName element) {
    List<Code> codes = new ArrayList<>(items.size());
    Cost cost = new Cost(8, 0); // a varargs array
    for (Expr e : items) {
      codes.add(e.code());
      cost = cost.plus(e.cost()).plus(5, 0);
    }
    String method = element.equals(ABI_TYPE) ? "types" : "entries";
    return new Expr(Code.of("$T.$L($L)", STUB_CONSTANTS, method, Code.join(codes, ", ")), cost);
  }

  private Expr shape(Shape shape) {
    if (!shape.isRanked()) {
      return new Expr(Code.of("$T.unranked()", SHAPE), new Cost(3, 0));
    }
    if (shape.rank() == 0) {
      return new Expr(Code.of("$T.scalar()", SHAPE), new Cost(3, 0));
    }
    long[] dims = shape.dims();
    if (dims.length <= PART_ELEMENTS) {
      return new Expr(
          Code.of("$T.of($L)", SHAPE, dims(dims, 0, dims.length)),
          new Cost(8 + 9 * dims.length, 2 * dims.length));
    }
    List<Code> calls = new ArrayList<>();
    for (int from = 0; from < dims.length; from += PART_ELEMENTS) {
      int to = Math.min(dims.length, from + PART_ELEMENTS);
      calls.add(
          placePart.apply(
              new Part(
                  TypeName.get(long[].class),
                  Code.of("return new long[] {$L}", dims(dims, from, to)),
                  new Cost(10 + 9 * (to - from), 2 * (to - from)))));
    }
    return new Expr(
        Code.of("$T.of($T.join($L))", SHAPE, STUB_CONSTANTS, Code.join(calls, ", ")),
        new Cost(10 + 8 * calls.size(), 4 * calls.size()));
  }

  /** The dims as source: {@code 2, Shape.DYNAMIC, 2147483648L}. */
  private static Code dims(long[] dims, int from, int to) {
    List<Code> out = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      long d = dims[i];
      out.add(
          d == Shape.DYNAMIC
              ? Code.of("$T.DYNAMIC", SHAPE)
              : d > Integer.MAX_VALUE ? Code.of("$LL", d) : Code.of("$L", d));
    }
    return Code.join(out, ", ");
  }

  /**
   * What {@code s} costs its holder, estimated before it is written (lists long enough to be
   * written in parts cost only their calls); writing it may cost less (equal descriptors named
   * once).
   */
  static Cost estimate(FunctionSignature s) {
    Cost cost = new Cost(40, 10);
    for (AbiType t : s.arguments()) {
      cost = cost.plus(estimate(t));
    }
    for (AbiType t : s.results()) {
      cost = cost.plus(estimate(t));
    }
    return cost;
  }

  private static Cost estimate(AbiType t) {
    if (t instanceof AbiType.NdArray ndArray) {
      Shape shape = ndArray.shape();
      int rank = shape.isRanked() ? shape.rank() : 0;
      return rank > PART_ELEMENTS
          ? new Cost(30 + 8 * (rank / PART_ELEMENTS + 1), 10 + 4 * (rank / PART_ELEMENTS + 1))
          : new Cost(30 + 9 * rank, 10 + 2 * rank);
    }
    List<AbiType> children = new ArrayList<>();
    int strings = 1;
    if (t instanceof AbiType.Dict dict) {
      for (AbiType.Entry e : dict.entries()) {
        children.add(e.type());
      }
      strings += children.size();
    } else if (t instanceof AbiType.Sequence sequence) {
      children.addAll(sequence.elements());
    } else if (t instanceof AbiType.HomogeneousList homogeneousList) {
      children.add(homogeneousList.element());
    } else if (t instanceof AbiType.Named named) {
      children.add(named.type());
    }
    if (children.size() > PART_ELEMENTS) {
      int parts = children.size() / PART_ELEMENTS + 1;
      return new Cost(20 + 8 * parts, 6 + 4 * parts);
    }
    Cost cost = new Cost(20 + 5 * children.size(), 3 + 2 * strings);
    for (AbiType c : children) {
      cost = cost.plus(estimate(c));
    }
    return cost;
  }

  /** An element type: its constant ({@code ElementType.F32}), else its factory call. */
  static Expr element(ElementType e) {
    Optional<String> constant = ElementConstants.nameOf(e);
    if (constant.isPresent()) {
      return new Expr(Code.of("$T.$L", ELEMENT_TYPE, constant.get()), new Cost(3, 3));
    }
    switch (e.kind()) {
      case SIGNLESS_INTEGER -> {
        return new Expr(Code.of("$T.integer($L)", ELEMENT_TYPE, e.bits()), new Cost(6, 3));
      }
      case SIGNED_INTEGER -> {
        return new Expr(Code.of("$T.signedInteger($L)", ELEMENT_TYPE, e.bits()), new Cost(6, 3));
      }
      case UNSIGNED_INTEGER -> {
        return new Expr(Code.of("$T.unsignedInteger($L)", ELEMENT_TYPE, e.bits()), new Cost(6, 3));
      }
      case COMPLEX -> {
        return new Expr(
            Code.of(
                "$T.complex($L)", ELEMENT_TYPE, element(ElementConstants.complexPart(e)).code()),
            new Cost(9, 3));
      }
      default -> {
        Expr name = Literals.string(e.mlirName());
        return new Expr(
            Code.of("$T.otherFloat($L, $L)", ELEMENT_TYPE, name.code(), e.bits()),
            name.cost().plus(8, 3));
      }
    }
  }
}
