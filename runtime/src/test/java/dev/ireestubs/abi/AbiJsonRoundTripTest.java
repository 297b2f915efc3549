package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertWithMessage;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * parse(print(x)) == x for generated signatures nesting up to six levels deep, over every type
 * record the JSON format can express.
 */
class AbiJsonRoundTripTest {

  static final int MAX_DEPTH = 6;
  private static final ElementType[] ELEMENTS = {
    ElementType.I1,
    ElementType.I8,
    ElementType.I16,
    ElementType.I32,
    ElementType.I64,
    ElementType.integer(3),
    ElementType.integer(128),
    ElementType.F16,
    ElementType.F32,
    ElementType.F64,
    ElementType.BF16
  };
  private static final String[] KEY_PARTS = {
    "a", "b", "x_y", "Z", "é", "\"q\"", "\\", " ", "7", ""
  };

  /** A random type record of at most {@code depth} levels. */
  static AbiType randomType(Random rnd, int depth) {
    int choice = rnd.nextInt(depth <= 1 ? 4 : 8);
    switch (choice) {
      case 0:
        return new AbiType.Scalar(ELEMENTS[rnd.nextInt(ELEMENTS.length)]);
      case 1:
        return new AbiType.NdArray(
            rnd.nextInt(8) == 0 ? ElementType.UNKNOWN : ELEMENTS[rnd.nextInt(ELEMENTS.length)],
            randomShape(rnd));
      case 2:
        return new AbiType.Any();
      case 3:
        return new AbiType.Unknown();
      case 4:
      case 5:
        {
          List<AbiType> elements = new ArrayList<>();
          int n = rnd.nextInt(4);
          for (int i = 0; i < n; i++) {
            elements.add(randomType(rnd, depth - 1));
          }
          return new AbiType.Sequence(
              rnd.nextBoolean() ? AbiType.SequenceKind.LIST : AbiType.SequenceKind.TUPLE, elements);
        }
      case 6:
        {
          Set<String> keys = new LinkedHashSet<>();
          int n = rnd.nextInt(4);
          while (keys.size() < n) {
            keys.add(KEY_PARTS[rnd.nextInt(KEY_PARTS.length)] + rnd.nextInt(3));
          }
          List<AbiType.Entry> entries = new ArrayList<>();
          for (String k : keys) {
            entries.add(new AbiType.Entry(k, randomType(rnd, depth - 1)));
          }
          return new AbiType.Dict(entries);
        }
      default:
        return new AbiType.HomogeneousList(randomType(rnd, depth - 1));
    }
  }

  private static Shape randomShape(Random rnd) {
    if (rnd.nextInt(6) == 0) {
      return Shape.unranked();
    }
    long[] dims = new long[rnd.nextInt(5)];
    for (int i = 0; i < dims.length; i++) {
      dims[i] =
          rnd.nextInt(4) == 0 ? Shape.DYNAMIC : rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1 << 20);
    }
    return Shape.of(dims);
  }

  static FunctionSignature randomSignature(Random rnd) {
    List<AbiType> args = new ArrayList<>();
    int n = rnd.nextInt(5);
    for (int i = 0; i < n; i++) {
      AbiType t = randomType(rnd, MAX_DEPTH);
      args.add(rnd.nextInt(4) == 0 ? new AbiType.Named("arg" + i, t) : t);
    }
    List<AbiType> results = new ArrayList<>();
    int m = rnd.nextInt(4);
    for (int i = 0; i < m; i++) {
      results.add(randomType(rnd, MAX_DEPTH));
    }
    return new FunctionSignature(
        args,
        results,
        ReflectionFormat.IREE_ABI_JSON,
        FunctionSignature.CallingModel.SYNC,
        rnd.nextBoolean() ? OptionalInt.of(1) : OptionalInt.empty());
  }

  @Test
  void generatedSignaturesRoundTrip() {
    int count = 0;
    int deepest = 0;
    for (long seed = 0; seed < 3000; seed++) {
      FunctionSignature sig = randomSignature(new Random(seed));
      String text = AbiJson.print(sig);
      assertWithMessage("seed %s: %s", seed, text).that(AbiJson.parseFunction(text)).isEqualTo(sig);
      assertWithMessage("seed %s printed twice", seed)
          .that(AbiJson.print(AbiJson.parseFunction(text)))
          .isEqualTo(text);
      for (AbiType t : sig.arguments()) {
        deepest = Math.max(deepest, depth(t));
      }
      count++;
    }
    assertWithMessage("the generator reaches the maximum depth").that(deepest).isEqualTo(MAX_DEPTH);
    System.out.printf(
        "iree.abi round trips: %d generated signatures (nesting up to %d) parse(print(x)) == x%n",
        count, deepest);
  }

  static int depth(AbiType t) {
    if (t instanceof AbiType.Named) {
      return depth(((AbiType.Named) t).type());
    }
    if (t instanceof AbiType.Sequence) {
      return 1
          + ((AbiType.Sequence) t)
              .elements().stream().mapToInt(AbiJsonRoundTripTest::depth).max().orElse(0);
    }
    if (t instanceof AbiType.Dict) {
      return 1
          + ((AbiType.Dict) t).entries().stream().mapToInt(e -> depth(e.type())).max().orElse(0);
    }
    if (t instanceof AbiType.HomogeneousList) {
      return 1 + depth(((AbiType.HomogeneousList) t).element());
    }
    return 1;
  }
}
