package dev.ireestubs.host;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Deterministic Java values of any type record, in the forms the dynamic invoker returns. */
final class SampleValues {
  private final Random random;

  SampleValues(long seed) {
    this.random = new Random(seed);
  }

  /** True when a value of {@code type} can be made and marshalled both ways. */
  static boolean supported(AbiType type) {
    if (type instanceof AbiType.Named) {
      return supported(((AbiType.Named) type).type());
    } else if (type instanceof AbiType.Scalar) {
      ElementType e = ((AbiType.Scalar) type).element();
      return e.equals(ElementType.I1)
          || (e.isInteger()
              && e.bits() <= 64
              && e.bits() % 8 == 0
              && Integer.bitCount(e.bits()) == 1)
          || e.equals(ElementType.F32)
          || e.equals(ElementType.F64);
    } else if (type instanceof AbiType.NdArray) {
      ElementType e = ((AbiType.NdArray) type).element();
      return e.isKnown() && e.halCode().isPresent() && e.byteSize() > 0 && e.bits() <= 64;
    } else if (type instanceof AbiType.Dict) {
      return ((AbiType.Dict) type).entries().stream().allMatch(x -> supported(x.type()));
    } else if (type instanceof AbiType.Sequence) {
      return ((AbiType.Sequence) type).elements().stream().allMatch(SampleValues::supported);
    } else if (type instanceof AbiType.HomogeneousList) {
      return supported(((AbiType.HomogeneousList) type).element());
    }
    return type instanceof AbiType.Ref
        || type instanceof AbiType.Any
        || type instanceof AbiType.Unknown;
  }

  Object of(AbiType type) {
    if (type instanceof AbiType.Named) {
      return of(((AbiType.Named) type).type());
    } else if (type instanceof AbiType.Scalar) {
      ElementType e = ((AbiType.Scalar) type).element();
      if (e.equals(ElementType.I1)) {
        return random.nextBoolean();
      } else if (e.equals(ElementType.F32)) {
        return random.nextFloat();
      } else if (e.equals(ElementType.F64)) {
        return random.nextDouble();
      }
      switch (e.bits()) {
        case 8:
          return (byte) random.nextInt();
        case 16:
          return (short) random.nextInt();
        case 32:
          return random.nextInt();
        default:
          return random.nextLong();
      }
    } else if (type instanceof AbiType.NdArray) {
      AbiType.NdArray t = (AbiType.NdArray) type;
      long[] shape;
      if (t.shape().isRanked()) {
        shape = t.shape().dims().clone();
        for (int i = 0; i < shape.length; i++) {
          if (shape[i] < 0) {
            shape[i] = 1 + random.nextInt(3);
          }
        }
      } else {
        shape = new long[] {1 + random.nextInt(3)};
      }
      BufferView view = BufferView.allocate(t.element().halCode().get(), shape);
      ByteBuffer data = view.data();
      for (int i = 0; i < data.capacity(); i++) {
        data.put(
            i,
            t.element().equals(ElementType.I1)
                ? (byte) random.nextInt(2)
                : (byte) random.nextInt());
      }
      return NdArray.fromBufferView(view);
    } else if (type instanceof AbiType.Dict) {
      Map<String, Object> values = new LinkedHashMap<>();
      for (AbiType.Entry e : ((AbiType.Dict) type).entries()) {
        values.put(e.key(), of(e.type()));
      }
      return values;
    } else if (type instanceof AbiType.Sequence) {
      List<Object> values = new ArrayList<>();
      for (AbiType e : ((AbiType.Sequence) type).elements()) {
        values.add(of(e));
      }
      return values;
    } else if (type instanceof AbiType.HomogeneousList) {
      List<Object> values = new ArrayList<>();
      int n = random.nextInt(4);
      for (int i = 0; i < n; i++) {
        values.add(of(((AbiType.HomogeneousList) type).element()));
      }
      return values;
    } else if (type instanceof AbiType.Ref) {
      String refType = ((AbiType.Ref) type).refType();
      return OpaqueRef.of(
          refType.equals(AbiType.Ref.ANY) ? "test.thing" : refType.replace("!", ""),
          random.nextInt());
    }
    if (type instanceof AbiType.Unknown) {
      return OpaqueRef.of("test.unknown", random.nextInt());
    }
    return random.nextInt(); // Any: decoded back as Integer
  }
}
