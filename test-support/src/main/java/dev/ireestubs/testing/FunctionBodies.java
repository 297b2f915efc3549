package dev.ireestubs.testing;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.ireestubs.testing.TestModules.Schema;
import dev.ireestubs.testing.TestModules.Spec;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the code of a spec's functions for {@link ModuleWriter}: each body as {@link Spec#body}
 * gave it or a default one written with {@link TestBytecode}, the function descriptors (register
 * counts, each body's length and offset; the wide form from 2023-02) and the bytecode vector, where
 * bodies start 8-aligned.
 */
final class FunctionBodies {
  private final Spec spec;
  private final FlatBufferBuilder b;

  FunctionBodies(Spec spec, FlatBufferBuilder b) {
    this.spec = spec;
    this.b = b;
  }

  /** Each function's body, in order: given, or the default one. */
  List<byte[]> bodies() {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < Math.max(1, spec.functions.size()); i++) {
      byte[] given = spec.bodies.get(i);
      out.add(
          given != null
              ? given
              : defaultBody(i < spec.functions.size() ? spec.functions.get(i).cconv() : null));
    }
    return out;
  }

  /** {@code count}, which the default body of {@code cconv} needs to be positive. */
  private static int registers(int count, String kind, String cconv) {
    if (count <= 0) {
      throw new IllegalArgumentException(
          "the default body of calling convention "
              + cconv
              + " returns a "
              + kind
              + " register, but the spec has "
              + count
              + " "
              + kind
              + " registers; give registers(...) at least one, or the function a body");
    }
    return count;
  }

  /** A block returning the first arguments of each result's kind (refs, then i32 registers). */
  private byte[] defaultBody(String cconv) {
    TestBytecode code = new TestBytecode();
    if (spec.bytecodeVersion >= (15 << 16)) {
      code.block();
    }
    List<Integer> regs = new ArrayList<>();
    int underscore = cconv == null ? -1 : cconv.indexOf('_');
    int refs = 0;
    int ints = 0;
    for (int i = underscore + 1; underscore > 0 && i < cconv.length(); i++) {
      char c = cconv.charAt(i);
      if (c == 'r') {
        regs.add(TestBytecode.ref(refs++ % registers(spec.refRegisters, "ref", cconv)));
      } else if (c == 'i' || c == 'f') {
        regs.add(TestBytecode.i32(ints++ % registers(spec.i32Registers, "i32", cconv)));
      } else if (c == 'I' || c == 'F') {
        ints += ints % 2;
        regs.add(TestBytecode.i32(ints % registers(spec.i32Registers, "i32", cconv)));
        ints += 2;
      }
    }
    return code.ret(regs.stream().mapToInt(Integer::intValue).toArray()).bytes();
  }

  int descriptors(List<byte[]> bodies) {
    int n = spec.functions.size();
    boolean wide = spec.schema == Schema.S2023;
    int[] offsets = new int[n];
    for (int i = 1; i < n; i++) {
      offsets[i] = offsets[i - 1] + padded(bodies.get(i - 1).length);
    }
    b.startVector(wide ? 20 : 12, n, 4);
    for (int i = n - 1; i >= 0; i--) {
      if (wide) {
        b.prep(4, 20);
        b.putShort((short) spec.refRegisters);
        b.putShort((short) spec.i32Registers);
        b.putShort((short) 1); // block count
        b.putShort((short) 0); // reserved
        b.putInt(0); // requirements
      } else {
        b.prep(4, 12);
        b.putShort((short) spec.refRegisters);
        b.putShort((short) spec.i32Registers);
      }
      b.putInt(bodies.get(i).length);
      b.putInt(offsets[i]);
    }
    return b.endVector();
  }

  /** Bodies start 8-aligned, as IREE lays them out. */
  private static int padded(int length) {
    return (length + 7) & ~7;
  }

  int bytecode(List<byte[]> bodies) {
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    for (byte[] body : bodies) {
      code.write(body, 0, body.length);
      for (int i = body.length; i < padded(body.length); i++) {
        code.write(0);
      }
    }
    return b.createByteVector(code.toByteArray());
  }
}
