package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.util.List;

/**
 * The checks of a VM list element (a {@link VmValue}, a {@link VmRef} or null) against the type
 * tree its signature declares, walked to any depth: what a host module runs on the argument list it
 * receives and the result list its function returns ({@link AbiValues#checkArguments}, {@link
 * AbiValues#checkResults}). The rules are written twice: {@link #valid} decides without a path or a
 * message, so checking a valid list allocates nothing; {@link #check} runs only after it failed, to
 * say what is wrong with the messages of {@link ValueChecks}. Also the ref-type check and the
 * message for an unsupported type, which encoding and decoding share.
 */
final class VmElementChecks {

  private VmElementChecks() {}

  /**
   * True when {@link #check} passes {@code element}: the same rules, decided without a path or a
   * message, so that a valid call allocates nothing; {@link #check} then runs only to say what is
   * wrong.
   */
  static boolean valid(AbiType declared, Object element, int depth) {
    if (depth > AbiValues.MAX_DEPTH) {
      return false;
    }
    if (declared instanceof AbiType.Named named) {
      return valid(named.type(), element, depth);
    } else if (declared instanceof AbiType.Scalar scalar) {
      ElementType type = scalar.element();
      if (!(element instanceof VmValue value)) {
        return false;
      }

      if (type.isInteger() || type.kind() == ElementType.Kind.BOOLEAN) {
        return value.isInteger() && ValueChecks.fits(value.asI64(), type);
      }
      return (type.equals(ElementType.F32) || type.equals(ElementType.F64)) && value.isFloat();
    } else if (declared instanceof AbiType.NdArray ndArray) {
      return element instanceof BufferView bufferView && ValueChecks.fits(ndArray, bufferView);
    } else if (declared instanceof AbiType.Dict dict) {
      List<AbiType.Entry> entries = dict.entries();
      if (!(element instanceof VmList vmList) || vmList.size() != entries.size()) {
        return false;
      }
      for (int i = 0; i < entries.size(); i++) {
        if (!valid(entries.get(i).type(), vmList.get(i), depth + 1)) {
          return false;
        }
      }
      return true;
    } else if (declared instanceof AbiType.Sequence sequence) {
      List<AbiType> elements = sequence.elements();
      if (!(element instanceof VmList vmList) || vmList.size() != elements.size()) {
        return false;
      }
      for (int i = 0; i < elements.size(); i++) {
        if (!valid(elements.get(i), vmList.get(i), depth + 1)) {
          return false;
        }
      }
      return true;
    } else if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      if (!(element instanceof VmList list)) {
        return false;
      }
      AbiType type = homogeneousList.element();

      for (int i = 0; i < list.size(); i++) {
        if (!valid(type, list.get(i), depth + 1)) {
          return false;
        }
      }
      return true;
    } else if (declared instanceof AbiType.Ref) {
      return element == null || (element instanceof VmRef vmRef && refTypeMatches(declared, vmRef));
    }
    return !(declared instanceof AbiType.Unsupported); // Any, Unknown: whatever arrives
  }

  static void check(AbiType declared, Object element, Side side, String path, int depth) {
    if (depth > AbiValues.MAX_DEPTH) {
      throw AbiValues.tooDeep(side, path);
    }
    if (declared instanceof AbiType.Named named) {
      check(named.type(), element, side, path, depth);
    } else if (declared instanceof AbiType.Scalar scalar) {
      ElementType type = scalar.element();
      if (type.isInteger() || type.kind() == ElementType.Kind.BOOLEAN) {
        ValueChecks.integer(element, type, side, path);
      } else if (type.equals(ElementType.F32) || type.equals(ElementType.F64)) {
        ValueChecks.floating(element, type, side, path);
      } else {
        throw IreeValueException.of(side, path, "a scalar " + type + " has no VM value type");
      }
    } else if (declared instanceof AbiType.NdArray ndArray) {
      ValueChecks.bufferView(element, ndArray, side, path);
    } else if (declared instanceof AbiType.Dict dict) {
      List<AbiType.Entry> entries = dict.entries();
      VmList list = ValueChecks.list(element, declared, entries.size(), side, path);
      for (int i = 0; i < entries.size(); i++) {
        AbiType.Entry e = entries.get(i);
        check(e.type(), list.get(i), side, path + "." + e.key(), depth + 1);
      }
    } else if (declared instanceof AbiType.Sequence sequence) {
      List<AbiType> elements = sequence.elements();
      VmList list = ValueChecks.list(element, declared, elements.size(), side, path);
      String each = path + "[*]";
      for (int i = 0; i < elements.size(); i++) {
        try {
          check(elements.get(i), list.get(i), side, each, depth + 1);
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
    } else if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      VmList list = ValueChecks.list(element, declared, -1, side, path);
      AbiType type = homogeneousList.element();
      String each = path + "[*]";
      for (int i = 0; i < list.size(); i++) {
        try {
          check(type, list.get(i), side, each, depth + 1);
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
    } else if (declared instanceof AbiType.Ref) {
      VmRef ref = ValueChecks.ref(element, side, path);
      if (ref != null) {
        checkRefType(declared, ref, side, path);
      }
    } else if (declared instanceof AbiType.Unsupported unsupported) {
      throw unsupported(unsupported, side, path);
    }
    // Any, Unknown: whatever arrives.
  }

  /**
   * True when {@code ref} is of the type a {@code declared} ref slot names (any, when not a ref).
   */
  private static boolean refTypeMatches(AbiType declared, VmRef ref) {
    if (!(declared instanceof AbiType.Ref refSlot)) {
      return true;
    }
    String expected = refSlot.refType();
    if (expected.equals(AbiType.Ref.ANY)) {
      return true;
    }
    String actual = ref.refTypeName();
    int skip = expected.startsWith("!") ? 1 : 0;
    return actual != null
        && expected.length() - skip == actual.length()
        && expected.startsWith(actual, skip);
  }

  static void checkRefType(AbiType declared, VmRef ref, Side side, String path) {
    if (refTypeMatches(declared, ref)) {
      return;
    }
    String expected = ((AbiType.Ref) declared).refType();
    if (expected.equals(AbiType.Ref.ANY)) {
      return;
    }
    String bare = expected.startsWith("!") ? expected.substring(1) : expected;
    if (!bare.equals(ref.refTypeName())) {
      throw IreeValueException.of(
          side,
          path,
          "expected a ref of type " + bare + " but got one of type " + ref.refTypeName());
    }
  }

  static IreeValueException unsupported(AbiType.Unsupported type, Side side, String path) {
    return IreeValueException.of(
        side,
        path,
        "the signature uses "
            + type.source()
            + ", which iree-stubs cannot marshal ("
            + type.reason()
            + ")");
  }
}
