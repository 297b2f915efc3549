package dev.ireestubs.vmfb;

import dev.ireestubs.vmfb.FlatBuffer.Table;
import dev.ireestubs.vmfb.FlatBuffer.Vector;
import dev.ireestubs.vmfb.ModuleDefLayout.SignatureFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a module's {@code FunctionSignatureDef} tables (calling convention and reflection
 * attributes, in each {@link SignatureFormat}) and attribute lists ({@code AttrDef} key/value
 * tables). Each signature and attribute list is decoded once per position in the buffer, so a
 * module whose tables alias one another costs no more than its size. One reader per module.
 */
final class SignatureReader {

  /** A signature's calling convention and attributes. */
  record Signature(Optional<String> callingConvention, VmfbAttributes attributes) {
    static final Signature NONE = new Signature(Optional.empty(), VmfbAttributes.empty());
  }

  private final Map<Long, Signature> signatures = new HashMap<>();
  private final Map<Long, VmfbAttributes> attributeLists = new HashMap<>();

  /** The signature in {@code table}, laid out as {@code format} says. */
  Signature signature(Table table, SignatureFormat format) throws VmfbFormatException {
    Signature cached = signatures.get(table.pos);
    if (cached != null) {
      return cached;
    }
    if (format == SignatureFormat.EITHER) {
      format =
          table.has(2) || table.has(3)
              ? SignatureFormat.TYPES_CCONV_ATTRS
              : SignatureFormat.CCONV_ATTRS;
    }

    Signature signature =
        switch (format) {
          case TYPES_ATTRS ->
              new Signature(Optional.empty(), attributes(table.vector(2, 4, "reflection_attrs")));
          case TYPES_CCONV_ATTRS ->
              new Signature(
                  Optional.ofNullable(table.string(2, "calling_convention")),
                  attributes(table.vector(3, 4, "reflection_attrs")));
          default ->
              new Signature(
                  Optional.ofNullable(table.string(0, "calling_convention")),
                  attributes(table.vector(1, 4, "attrs")));
        };
    signatures.put(table.pos, signature);
    return signature;
  }

  /** The attributes in a vector of {@code AttrDef} tables; empty when it is null or empty. */
  VmfbAttributes attributes(Vector vector) throws VmfbFormatException {
    if (vector == null || vector.count == 0) {
      return VmfbAttributes.empty();
    }
    VmfbAttributes cached = attributeLists.get(vector.start);
    if (cached != null) {
      return cached;
    }
    List<VmfbAttributes.Entry> entries = new ArrayList<>(vector.count);
    for (int i = 0; i < vector.count; i++) {
      Table attr = vector.table(i);
      String key = attr.string(0, "key");
      String value = attr.string(1, "value");
      entries.add(new VmfbAttributes.Entry(key == null ? "" : key, value == null ? "" : value));
    }
    VmfbAttributes result = VmfbAttributes.of(entries);
    attributeLists.put(vector.start, result);
    return result;
  }
}
