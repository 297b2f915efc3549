package dev.ireestubs.internal;

import dev.ireestubs.abi.AbiType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Helpers the constant holders of generated stubs call while they build a function's signature as
 * code: joining a list or a shape written in parts (a part per method, so that no method of a
 * generated class nears the class-file limits), and the error paths of an {@code sdict}'s values.
 * Not API for users.
 */
public final class StubConstants {

  private StubConstants() {}

  /**
   * The types of a signature's list as a list: a generated signature calls this non-generic method
   * rather than {@code List.of}, which javac would resolve by type inference, at a cost that a stub
   * of a thousand signatures feels.
   *
   * @param types the types, in order
   * @return an unmodifiable list of {@code types}
   */
  public static List<AbiType> types(AbiType... types) {
    return List.of(types);
  }

  /**
   * The entries of an {@code sdict} as a list, for the same reason as {@link #types}.
   *
   * @param entries the entries, in order
   * @return an unmodifiable list of {@code entries}
   */
  public static List<AbiType.Entry> entries(AbiType.Entry... entries) {
    return List.of(entries);
  }

  /**
   * The parts, in order, as one unmodifiable list.
   *
   * @param <T> the element type of the joined list
   * @param parts the lists to join, in order; none may be null or hold a null part
   * @return a new unmodifiable list of every element of the parts, in order
   */
  @SafeVarargs
  public static <T> List<T> join(List<? extends T>... parts) {
    int size = 0;
    for (List<? extends T> part : parts) {
      size += part.size();
    }
    List<T> all = new ArrayList<>(size);
    for (List<? extends T> part : parts) {
      all.addAll(part);
    }
    return Collections.unmodifiableList(all);
  }

  /**
   * The parts, in order, as one array (the dimensions of a shape of high rank).
   *
   * @param parts the arrays to join, in order; none may be null
   * @return a new array of every element of the parts, in order
   */
  public static long[] join(long[]... parts) {
    int size = 0;
    for (long[] part : parts) {
      size += part.length;
    }
    long[] all = new long[size];
    int at = 0;
    for (long[] part : parts) {
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    return all;
  }

  /**
   * The descriptor of each value of an {@code dict} whose values are all n-d arrays, in key order:
   * what a stub checks each array of a {@code Map<String, FloatArray>} against.
   *
   * @param dict the {@code dict} type a signature declares
   * @return an unmodifiable list of one array type per key, in key order
   * @throws IllegalArgumentException when a value is not an n-d array
   */
  public static List<AbiType.NdArray> arrays(AbiType.Dict dict) {
    List<AbiType.NdArray> arrays = new ArrayList<>(dict.entries().size());
    for (AbiType.Entry e : dict.entries()) {
      if (!(e.type() instanceof AbiType.NdArray)) {
        throw new IllegalArgumentException(
            "sdict value '" + e.key() + "' is not an ndarray: " + e.type());
      }
      arrays.add((AbiType.NdArray) e.type());
    }
    return Collections.unmodifiableList(arrays);
  }

  /**
   * The path of each value of an {@code sdict} at {@code path}, {@code "f: d.key"} for each key:
   * built once, when the stub's constants are, so that a call builds no text unless it fails.
   *
   * @param path the path of the {@code sdict} value, e.g. {@code f: d}
   * @param keys the {@code sdict}'s keys, in descriptor order
   * @return an unmodifiable list of one path per key, in key order
   */
  public static List<String> keyPaths(String path, List<String> keys) {
    List<String> paths = new ArrayList<>(keys.size());
    for (String key : keys) {
      paths.add(path + "." + key);
    }
    return Collections.unmodifiableList(paths);
  }
}
