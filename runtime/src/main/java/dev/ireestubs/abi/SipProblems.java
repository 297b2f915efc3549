package dev.ireestubs.abi;

import dev.ireestubs.abi.SipSignature.Problem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The checks behind {@link SipSignature#problems()}: keys in the compiler's order, raw indices
 * exactly {@code 0..n-1}. All problems are counted, but only the first {@link
 * SipSignature#MAX_LISTED_PROBLEMS} are kept, and a problem's path is written out only then, so
 * that a signature with a problem at each of many deep leaves costs no more to check than to read.
 */
final class SipProblems {

  /** At most this many characters of a dict key are written in a problem's path. */
  private static final int PATH_KEY_LENGTH = 40;

  private final List<Problem> listed = new ArrayList<>();
  private int count;

  private SipProblems() {}

  /** The problems kept, the first found; at most {@link SipSignature#MAX_LISTED_PROBLEMS}. */
  List<Problem> listed() {
    return Collections.unmodifiableList(listed);
  }

  /** How many problems there are, listed or not. */
  int count() {
    return count;
  }

  private void add(Supplier<Problem> problem) {
    count++;
    if (listed.size() < SipSignature.MAX_LISTED_PROBLEMS) {
      listed.add(problem.get());
    }
  }

  /** The key-order problems of {@code s}. */
  static SipProblems keyOrder(SipSignature s) {
    SipProblems out = new SipProblems();
    out.addKeyOrder(s);
    return out;
  }

  /** The raw-index problems of {@code s}. */
  static SipProblems rawIndices(SipSignature s) {
    SipProblems out = new SipProblems();
    out.addRawIndices(s);
    return out;
  }

  /** Every problem of {@code s}: key order, then raw indices. */
  static SipProblems all(SipSignature s) {
    SipProblems out = new SipProblems();
    out.addKeyOrder(s);
    out.addRawIndices(s);
    return out;
  }

  private void addKeyOrder(SipSignature s) {
    s.inputs().ifPresent(n -> keyOrder(n, "inputs", null, this));
    s.results().ifPresent(n -> keyOrder(n, "results", null, this));
  }

  private static void keyOrder(SipNode node, String side, Path path, SipProblems out) {
    if (node instanceof SipNode.Sequence sequence) {
      List<SipNode.SequenceEntry> entries = sequence.entries();
      for (int i = 0; i < entries.size(); i++) {
        int key = entries.get(i).key();
        if (i > 0) {
          int previous = entries.get(i - 1).key();
          if (key == previous) {
            out.add(
                () ->
                    new Problem(
                        Path.of(side, path),
                        "sequence key " + key + " appears twice; keys must be unique"));
          } else if (key < previous) {
            out.add(
                () ->
                    new Problem(
                        Path.of(side, path),
                        "sequence key "
                            + key
                            + " follows "
                            + previous
                            + "; the compiler writes sequence keys in ascending order"));
          }
        }
        keyOrder(entries.get(i).node(), side, new Path(path, key, null), out);
      }
    } else if (node instanceof SipNode.Dict dict) {
      List<SipNode.DictEntry> entries = dict.entries();
      for (int i = 0; i < entries.size(); i++) {
        String key = entries.get(i).key();
        if (i > 0) {
          String previous = entries.get(i - 1).key();
          int c = AbiType.Dict.compareBytewise(key, previous);
          if (c == 0) {
            out.add(
                () ->
                    new Problem(
                        Path.of(side, path),
                        "dict key "
                            + JsonStrings.excerpt(key)
                            + " appears twice; keys must be unique"));
          } else if (c < 0) {
            out.add(
                () ->
                    new Problem(
                        Path.of(side, path),
                        "dict key "
                            + JsonStrings.excerpt(key)
                            + " follows "
                            + JsonStrings.excerpt(previous)
                            + "; the compiler writes dict keys in byte-wise ascending order"));
          }
        }
        keyOrder(entries.get(i).node(), side, new Path(path, 0, key), out);
      }
    }
  }

  private void addRawIndices(SipSignature s) {
    rawIndices(s.inputs(), "inputs", this);
    rawIndices(s.results(), "results", this);
  }

  private static void rawIndices(Optional<SipNode> side, String name, SipProblems out) {
    List<SipNode.Leaf> leaves = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    side.ifPresent(
        n ->
            forEachLeaf(
                n,
                null,
                (leaf, path) -> {
                  leaves.add(leaf);
                  paths.add(path);
                }));
    int n = leaves.size();
    String rule =
        n == 0
            ? ""
            : "; with "
                + n
                + (n == 1 ? " leaf" : " leaves")
                + " the raw indices must be exactly 0.."
                + (n - 1)
                + ", each once";
    Map<Integer, Path> seen = new HashMap<>();
    for (int i = 0; i < n; i++) {
      int index = leaves.get(i).rawIndex();
      Path path = paths.get(i);
      if (index >= n) {
        out.add(
            () ->
                new Problem(Path.of(name, path), "raw index " + index + " is out of range" + rule));
      } else if (seen.containsKey(index)) {
        Path first = seen.get(index);
        out.add(
            () ->
                new Problem(
                    Path.of(name, path),
                    "raw index "
                        + index
                        + " is used again (first at "
                        + Path.of(name, first)
                        + ")"
                        + rule));
      } else {
        seen.put(index, path);
      }
    }
    for (int i = 0; i < n; i++) {
      if (!seen.containsKey(i)) {
        int missing = i;
        out.add(() -> new Problem(name, "raw index " + missing + " is missing" + rule));
      }
    }
  }

  /** Visits the leaves under {@code node} depth first, each with its path (for messages). */
  private static void forEachLeaf(SipNode node, Path path, BiConsumer<SipNode.Leaf, Path> visit) {
    if (node instanceof SipNode.Leaf leaf) {
      visit.accept(leaf, path);
    } else if (node instanceof SipNode.Sequence sequence) {
      for (SipNode.SequenceEntry e : sequence.entries()) {
        forEachLeaf(e.node(), new Path(path, e.key(), null), visit);
      }
    } else {
      for (SipNode.DictEntry e : ((SipNode.Dict) node).entries()) {
        forEachLeaf(e.node(), new Path(path, 0, e.key()), visit);
      }
    }
  }

  /**
   * Where a structure sits below a side, {@code [0]["foo"]}, kept as links and written out only for
   * a problem that is listed. Keys longer than {@value #PATH_KEY_LENGTH} characters are cut.
   */
  private static final class Path {
    final Path parent;
    final int index;
    final String key;

    Path(Path parent, int index, String key) {
      this.parent = parent;
      this.index = index;
      this.key = key;
    }

    static String of(String side, Path path) {
      StringBuilder sb = new StringBuilder(side);
      write(sb, path);
      return sb.toString();
    }

    private static void write(StringBuilder sb, Path path) {
      if (path == null) {
        return;
      }
      write(sb, path.parent);
      sb.append('[');
      if (path.key == null) {
        sb.append(path.index);
      } else if (path.key.length() <= PATH_KEY_LENGTH) {
        sb.append(JsonStrings.quote(path.key));
      } else {
        sb.append(JsonStrings.quote(path.key.substring(0, PATH_KEY_LENGTH))).append("...");
      }
      sb.append(']');
    }
  }
}
