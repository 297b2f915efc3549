package dev.ireestubs.testing;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.ireestubs.testing.TestModules.Export;
import dev.ireestubs.testing.TestModules.Fn;
import dev.ireestubs.testing.TestModules.Schema;
import dev.ireestubs.testing.TestModules.Spec;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the tables and vectors a module's root points at, for {@link ModuleWriter}: attrs,
 * signatures in the form of the spec's revision (2019-12, the long form until 2022-05, the short
 * one after), types, imports, exports, internal functions or function signatures, module state,
 * rodata, rwdata and dependencies. Field ids come from the schema history table (section 7.1 of the
 * ABI reference), independently of the reader's own tables.
 */
final class ModuleSections {
  private final Spec spec;
  private final FlatBufferBuilder b;

  ModuleSections(Spec spec, FlatBufferBuilder b) {
    this.spec = spec;
    this.b = b;
  }

  private boolean longSignatures() {
    return spec.schema == Schema.S2019
        || spec.schema == Schema.S2020
        || spec.schema == Schema.S2021
        || spec.schema == Schema.S2022_05;
  }

  int attrs(List<String> kv) {
    if (kv.isEmpty()) {
      return 0;
    }
    int[] tables = new int[kv.size() / 2];
    for (int i = 0; i < tables.length; i++) {
      int k = b.createString(kv.get(2 * i));
      int v = b.createString(kv.get(2 * i + 1));
      b.startTable(2);
      b.addOffset(0, k, 0);
      b.addOffset(1, v, 0);
      tables[i] = b.endTable();
    }
    return b.createVectorOfTables(tables);
  }

  private int ints(int... values) {
    b.startVector(4, values.length, 4);
    for (int i = values.length - 1; i >= 0; i--) {
      b.addInt(values[i]);
    }
    return b.endVector();
  }

  private int signature(String cconv, List<String> kv) {
    int a = attrs(kv);
    int c = cconv == null ? 0 : b.createString(cconv);
    if (spec.schema == Schema.S2019) {
      int args = ints(0, 0);
      int results = ints(0);
      b.startTable(3);
      b.addOffset(0, args, 0);
      b.addOffset(1, results, 0);
      b.addOffset(2, a, 0);
      return b.endTable();
    }
    if (longSignatures()) {
      int args = ints(0, 0);
      int results = ints(0);
      b.startTable(4);
      b.addOffset(0, args, 0);
      b.addOffset(1, results, 0);
      b.addOffset(2, c, 0);
      b.addOffset(3, a, 0);
      return b.endTable();
    }
    b.startTable(2);
    b.addOffset(0, c, 0);
    b.addOffset(1, a, 0);
    return b.endTable();
  }

  int types() {
    String[] names = {"!hal.buffer_view", "!hal.device", "i32"};
    int[] tables = new int[names.length];
    for (int i = 0; i < names.length; i++) {
      int s = b.createString(names[i]);
      b.startTable(1);
      b.addOffset(0, s, 0);
      tables[i] = b.endTable();
    }
    return b.createVectorOfTables(tables);
  }

  int imports() {
    int[] tables = new int[spec.imports.size()];
    for (int i = 0; i < tables.length; i++) {
      int sig = signature(spec.imports.get(i)[1], List.of());
      int n = b.createString(spec.imports.get(i)[0]);
      b.startTable(3);
      b.addOffset(0, n, 0);
      b.addOffset(1, sig, 0);
      if (spec.schema == Schema.S2023) {
        b.addInt(2, 1, 1);
      }
      tables[i] = b.endTable();
    }
    return b.createVectorOfTables(tables);
  }

  int moduleState() {
    b.startTable(2);
    b.addInt(0, 16, 0);
    b.addInt(1, 2, 0);
    return b.endTable();
  }

  int rodata() {
    int data = b.createByteVector(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    b.startTable(5);
    b.addOffset(2, data, 0);
    return b.createVectorOfTables(new int[] {b.endTable()});
  }

  int rwdata() {
    b.startTable(1);
    b.addInt(0, 64, 0);
    return b.createVectorOfTables(new int[] {b.endTable()});
  }

  int dependencies() {
    int n = b.createString("hal");
    b.startTable(3);
    b.addOffset(0, n, 0);
    b.addInt(1, 2, 0);
    return b.createVectorOfTables(new int[] {b.endTable()});
  }

  /**
   * The internal functions {0 name, 1 signature} of 2019-12 and 2020-09 ({@code internal}), else
   * the signatures alone (2023-02's function_signatures).
   */
  int functionTables(boolean internal) {
    int[] tables = new int[spec.functions.size()];
    for (int i = 0; i < tables.length; i++) {
      Fn f = spec.functions.get(i);
      int sig = signature(f.cconv(), f.attrs());
      if (internal) {
        int n = f.name() == null ? 0 : b.createString(f.name());
        b.startTable(2);
        b.addOffset(0, n, 0);
        b.addOffset(1, sig, 0);
        tables[i] = b.endTable();
      } else {
        tables[i] = sig;
      }
    }
    return b.createVectorOfTables(tables);
  }

  int exports() {
    List<Integer> tables = new ArrayList<>();
    for (Export e : spec.exports) {
      int n = b.createString(e.name());
      int t;
      if (spec.schema == Schema.S2023) {
        b.startTable(2);
        b.addOffset(0, n, 0);
        b.addInt(1, e.ordinal(), 0);
        t = b.endTable();
      } else {
        int sig = signature(e.cconv(), e.attrs());
        b.startTable(3);
        b.addOffset(0, n, 0);
        b.addOffset(1, sig, 0);
        b.addInt(2, e.ordinal(), 0);
        t = b.endTable();
      }
      for (int r = 0; r < spec.exportRepeat; r++) {
        tables.add(t);
      }
    }
    return b.createVectorOfTables(tables.stream().mapToInt(Integer::intValue).toArray());
  }
}
