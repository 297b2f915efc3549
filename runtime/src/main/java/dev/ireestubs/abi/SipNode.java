package dev.ireestubs.abi;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One structure of a V0 SIP (structured index path) signature: a leaf that places the value it
 * reaches at a raw argument or result index, a sequence with int keys, or a dict with string keys.
 * See {@link SipSignature}.
 *
 * <p>Immutable; compares by value. Children are held in the order given, which is the order they
 * are encoded in; {@link SipSignature#keyOrderProblems()} checks it is the compiler's sorted order.
 * Trees are at most {@link #MAX_DEPTH} structures deep, so that every tree can be encoded and read
 * back within {@link V0Components#MAX_DEPTH} and nothing that walks one can run out of stack.
 */
public sealed interface SipNode permits SipNode.Leaf, SipNode.Sequence, SipNode.Dict {

  /**
   * The deepest tree allowed: a sequence or dict counts one, a leaf none. One less than {@link
   * V0Components#MAX_DEPTH}, as the {@code I} or {@code R} span of a signature adds one level.
   */
  int MAX_DEPTH = V0Components.MAX_DEPTH - 1;

  /**
   * How many sequences and dicts are nested here: 0 for a leaf, 1 for a sequence of leaves.
   *
   * @return the nesting depth
   */
  int depth();

  /**
   * The form of IREE's old {@code ToStringVisitor} for this node at the root of one side, e.g.
   * {@code "=raw(0),\n"} for a leaf and, for a sequence of two leaves:
   *
   * <pre>
   * :[
   *   0=raw(0),
   *   1=raw(1),
   * ],
   * </pre>
   *
   * Each key is written after an indent of two spaces per level, a structure opens with {@code :[}
   * or <code>:&#123;</code> and a newline and closes with its indent, {@code ]} or <code>&#125;
   * </code>, {@code ,} and a newline; a leaf is {@code =raw(n),} and a newline.
   *
   * @return the node's text in that form
   */
  default String pretty() {
    StringBuilder sb = new StringBuilder();
    SipSignature.pretty(sb, this, 0);
    return sb.toString();
  }

  /**
   * A leaf, encoded {@code _<rawIndex>}: the value it reaches is raw argument (or result) number
   * {@code rawIndex}.
   *
   * @param rawIndex the index in the raw signature, {@code >= 0}
   */
  record Leaf(int rawIndex) implements SipNode {
    /**
     * Refuses a negative raw index.
     *
     * @param rawIndex the index in the raw signature, {@code >= 0}
     */
    public Leaf {
      if (rawIndex < 0) {
        throw new IllegalArgumentException("a SIP raw index must be >= 0, got " + rawIndex);
      }
    }

    @Override
    public int depth() {
      return 0;
    }

    /** {@code raw(n)}. */
    @Override
    public String toString() {
      return "raw(" + rawIndex + ")";
    }
  }

  /**
   * One child of a {@link Sequence}, encoded {@code k<key>} then the child.
   *
   * @param key the position in the sequence, {@code >= 0}
   * @param node the child
   */
  record SequenceEntry(int key, SipNode node) {
    /**
     * Refuses a negative key or a null node.
     *
     * @param key the position in the sequence, {@code >= 0}
     * @param node the child
     */
    public SequenceEntry {
      if (key < 0) {
        throw new IllegalArgumentException("a SIP sequence key must be >= 0, got " + key);
      }
      Objects.requireNonNull(node, "node");
    }

    /** {@code key: node}. */
    @Override
    public String toString() {
      return SipSignature.oneLine(new StringBuilder().append(key).append(": "), node).toString();
    }
  }

  /**
   * A sequence, encoded {@code S<len>!} then {@code k<key>} and a child for each entry. As a root
   * of the inputs it takes the positional arguments; keys may leave gaps (the runtime filled result
   * gaps with {@code None}).
   *
   * @param entries the children, in the order held
   */
  record Sequence(List<SequenceEntry> entries) implements SipNode {
    /**
     * Copies the entries and refuses nesting deeper than {@link SipNode#MAX_DEPTH}.
     *
     * @param entries the children, in the order held
     */
    public Sequence {
      entries = List.copyOf(entries);
      SipSignature.checkDepth(
          entries.stream().map(SequenceEntry::node).collect(Collectors.toList()));
    }

    @Override
    public int depth() {
      int max = 0;
      for (int i = 0; i < entries.size(); i++) {
        max = Math.max(max, entries.get(i).node().depth());
      }
      return max + 1;
    }

    /**
     * The keys, in the order held.
     *
     * @return the sequence's keys, unmodifiable
     */
    public List<Integer> keys() {
      return entries.stream().map(SequenceEntry::key).collect(Collectors.toUnmodifiableList());
    }

    /** {@code [0: raw(0), 1: raw(1)]}. */
    @Override
    public String toString() {
      return SipSignature.oneLine(new StringBuilder(), this).toString();
    }
  }

  /**
   * One child of a {@link Dict}, encoded {@code K<len>!<key>} then the child.
   *
   * @param key the key
   * @param node the child
   */
  record DictEntry(String key, SipNode node) {
    /**
     * Refuses a null key or node.
     *
     * @param key the key
     * @param node the child
     */
    public DictEntry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(node, "node");
    }

    /** {@code key: node}. */
    @Override
    public String toString() {
      return SipSignature.oneLine(new StringBuilder().append(key).append(": "), node).toString();
    }
  }

  /**
   * A dict, encoded {@code D<len>!} then {@code K<len>!<key>} and a child for each entry. As a root
   * of the inputs it takes the keyword arguments.
   *
   * @param entries the children, in the order held
   */
  record Dict(List<DictEntry> entries) implements SipNode {
    /**
     * Copies the entries and refuses nesting deeper than {@link SipNode#MAX_DEPTH}.
     *
     * @param entries the children, in the order held
     */
    public Dict {
      entries = List.copyOf(entries);
      SipSignature.checkDepth(entries.stream().map(DictEntry::node).collect(Collectors.toList()));
    }

    @Override
    public int depth() {
      int max = 0;
      for (int i = 0; i < entries.size(); i++) {
        max = Math.max(max, entries.get(i).node().depth());
      }
      return max + 1;
    }

    /**
     * The keys, in the order held.
     *
     * @return the dict's keys, unmodifiable
     */
    public List<String> keys() {
      return entries.stream().map(DictEntry::key).collect(Collectors.toUnmodifiableList());
    }

    /** {@code {x: raw(0), y: raw(1)}}. */
    @Override
    public String toString() {
      return SipSignature.oneLine(new StringBuilder(), this).toString();
    }
  }
}
