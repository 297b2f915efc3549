package dev.ireestubs.internal;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.abi.VmKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether two signatures of one function, possibly from different reflection formats, describe the
 * same calls: the check a generated stub makes when it binds to a loaded module (its compile-time
 * signature against the module's own reflection).
 *
 * <p>Formats differ in what they can say, so the comparison is by what both state: integers match
 * when their widths do (JSON drops signedness), an unknown element type, rank or dimension matches
 * anything, a {@code list<?>} (how a declaration shows an {@code sdict} or {@code slist}) matches
 * any list-shaped record, refs and {@code unknown} match any ref-kind type, and records this
 * library does not support are not compared. {@code named} names are not compared (declarations
 * have none); keys of two {@code sdict}s are.
 */
final class SignatureComparison {

  private SignatureComparison() {}

  /**
   * The differences between {@code expected} and {@code actual}, one sentence each, naming the
   * argument or result ({@code argument 0.image}, {@code result 1}); empty when they agree.
   *
   * @param expected the signature a stub was compiled against
   * @param actual the signature the loaded module states
   * @return one sentence per difference
   */
  static List<String> differences(FunctionSignature expected, FunctionSignature actual) {
    List<String> out = new ArrayList<>();
    if (expected.model() != actual.model()) {
      out.add(
          "the calling model differs: expected "
              + expected.model()
              + " but the module's function is "
              + actual.model());
    }
    compareLists(out, "argument", expected.arguments(), actual.arguments());
    compareLists(out, "result", expected.vmResults(), actual.vmResults());
    return List.copyOf(out);
  }

  private static void compareLists(
      List<String> out, String what, List<AbiType> expected, List<AbiType> actual) {
    if (expected.size() != actual.size()) {
      out.add(
          "expected "
              + expected.size()
              + " "
              + what
              + (expected.size() == 1 ? "" : "s")
              + " but the module's function has "
              + actual.size());
      return;
    }
    for (int i = 0; i < expected.size(); i++) {
      compare(out, what + " " + i, expected.get(i), actual.get(i), 0);
    }
  }

  private static void compare(List<String> out, String path, AbiType e, AbiType a, int depth) {
    if (depth > 64) {
      return;
    }
    if (e instanceof AbiType.Named named) {
      compare(out, path, named.type(), a, depth);
      return;
    }
    if (a instanceof AbiType.Named named) {
      compare(out, path, e, named.type(), depth);
      return;
    }
    if (e instanceof AbiType.Unsupported
        || a instanceof AbiType.Unsupported
        || e instanceof AbiType.Any
        || a instanceof AbiType.Any) {
      return;
    }
    if (isOpaque(e) || isOpaque(a)) {
      if (!isRefKind(e) || !isRefKind(a)) {
        mismatch(out, path, e, a);
      }
      return;
    }
    if (e instanceof AbiType.Scalar x && a instanceof AbiType.Scalar y) {
      if (!sameScalar(x.element(), y.element())) {
        mismatch(out, path, e, a);
      }
      return;
    }
    if (e instanceof AbiType.NdArray x && a instanceof AbiType.NdArray y) {
      boolean elements =
          !x.element().isKnown() || !y.element().isKnown() || sameScalar(x.element(), y.element());
      if (!elements || !sameShape(x.shape(), y.shape())) {
        mismatch(out, path, e, a);
      }
      return;
    }
    if ((isAnyList(e) && isListShaped(a)) || (isAnyList(a) && isListShaped(e))) {
      return;
    }
    if (e instanceof AbiType.Dict x && a instanceof AbiType.Dict y) {
      if (!x.keys().equals(y.keys())) {
        boolean sameSet =
            new java.util.HashSet<>(x.keys()).equals(new java.util.HashSet<>(y.keys()));
        out.add(
            sameSet
                ? path
                    + ": the keys are the same but their order differs ("
                    + x.keys()
                    + " against the module's "
                    + y.keys()
                    + "), and values travel in key order"
                : path + ": expected the keys " + x.keys() + " but the module's are " + y.keys());
        return;
      }
      for (int i = 0; i < x.entries().size(); i++) {
        compare(
            out,
            path + "." + x.entries().get(i).key(),
            x.entries().get(i).type(),
            y.entries().get(i).type(),
            depth + 1);
      }
      return;
    }
    if (e instanceof AbiType.Sequence xs && a instanceof AbiType.Sequence ys) {
      List<AbiType> x = xs.elements();
      List<AbiType> y = ys.elements();
      if (x.size() != y.size()) {
        mismatch(out, path, e, a);
        return;
      }
      for (int i = 0; i < x.size(); i++) {
        compare(out, path + "[" + i + "]", x.get(i), y.get(i), depth + 1);
      }
      return;
    }
    if (e instanceof AbiType.HomogeneousList x && a instanceof AbiType.HomogeneousList y) {
      compare(out, path + "[]", x.element(), y.element(), depth + 1);
      return;
    }
    mismatch(out, path, e, a);
  }

  private static boolean isOpaque(AbiType t) {
    return t instanceof AbiType.Ref || t instanceof AbiType.Unknown;
  }

  private static boolean isRefKind(AbiType t) {
    return t.vmKind().map(k -> k == VmKind.REF).orElse(true);
  }

  private static boolean isAnyList(AbiType t) {
    return t instanceof AbiType.HomogeneousList homogeneousList
        && homogeneousList.element() instanceof AbiType.Any;
  }

  private static boolean isListShaped(AbiType t) {
    return t instanceof AbiType.HomogeneousList
        || t instanceof AbiType.Sequence
        || t instanceof AbiType.Dict;
  }

  private static boolean sameScalar(ElementType x, ElementType y) {
    if (x.equals(y)) {
      return true;
    }
    if (x.kind() == ElementType.Kind.INDEX || y.kind() == ElementType.Kind.INDEX) {
      // index is as wide as the target's index (64 bits, or 32 with 32-bit index)
      return x.isInteger() && y.isInteger() && Math.min(x.bits(), y.bits()) >= 32;
    }
    return x.isInteger() && y.isInteger() && x.bits() == y.bits();
  }

  private static boolean sameShape(Shape x, Shape y) {
    if (!x.isRanked() || !y.isRanked()) {
      return true;
    }
    if (x.rank() != y.rank()) {
      return false;
    }
    for (int i = 0; i < x.rank(); i++) {
      if (!x.isDynamic(i) && !y.isDynamic(i) && x.dim(i) != y.dim(i)) {
        return false;
      }
    }
    return true;
  }

  private static void mismatch(List<String> out, String path, AbiType e, AbiType a) {
    out.add(path + ": expected " + e + " but the module's function has " + a);
  }
}
