package dev.ireestubs.abi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A V0 function's SIP structure combined with its raw signature: every leaf of the structure gets
 * the element type and dims of the raw slot it fills, so the function can be described, bound and
 * called as a tree of records and lists although the VM sees only the flat raw list.
 *
 * <p>{@link #signature()} is that tree as a {@link FunctionSignature} of format {@link
 * ReflectionFormat#V0_SIP}: a root sequence of the inputs becomes the positional arguments (in key
 * order), a root dict the keyword arguments ({@link AbiType.Named}, in key order); a nested
 * sequence is an {@code stuple}-like {@link AbiType.Sequence}, a nested dict an {@link
 * AbiType.Dict}; a leaf is the raw slot's type. On the result side a root leaf is the single
 * result, a root sequence the results in order, and a root dict one {@link AbiType.Dict} result
 * (whose values are the results, as IREE's inlining rule reads).
 *
 * <p>Unlike the V1 ABI, the structure never reaches the VM: {@link #inputs()} and {@link
 * #results()} keep the SIP trees, whose leaves say which raw slot each value fills. So {@link
 * #signature()} describes and binds, but never marshals: its VM form would be nested lists, while
 * the function takes the flat raw list ({@code dev.ireestubs.invoke.CallCodec.sip} flattens).
 *
 * @param sip the validated SIP signature
 * @param raw the raw signature ({@code f}); its arguments and results are the flat VM lists
 * @param signature the structured view described above
 */
public record SipStructure(SipSignature sip, FunctionSignature raw, FunctionSignature signature) {

  /**
   * Refuses null components.
   *
   * @param sip the validated SIP signature
   * @param raw the raw signature ({@code f}); its arguments and results are the flat VM lists
   * @param signature the structured view described above
   */
  public SipStructure {
    Objects.requireNonNull(sip, "sip");
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(signature, "signature");
  }

  /**
   * Combines {@code sip} with {@code raw} after checking that the raw indices of each side are
   * exactly {@code 0..n-1}, with {@code n} the raw signature's argument or result count.
   *
   * @param sip the function's {@code sip} signature
   * @param raw the function's raw {@code f} signature
   * @return the structure, whose signature names the structured arguments and results
   * @throws AbiParseException when they do not fit together, naming the first problems
   */
  public static SipStructure of(SipSignature sip, FunctionSignature raw) {
    Objects.requireNonNull(sip, "sip");
    Objects.requireNonNull(raw, "raw");
    sip.validate();
    checkCount("input", sip.inputIndices().size(), raw.arguments().size());
    checkCount("result", sip.resultIndices().size(), raw.results().size());
    List<AbiType> arguments = new ArrayList<>();
    if (sip.inputs().isPresent()) {
      SipNode root = sip.inputs().get();
      if (root instanceof SipNode.Sequence sequence) {
        for (SipNode.SequenceEntry e : sequence.entries()) {
          arguments.add(type(e.node(), raw.arguments()));
        }
      } else if (root instanceof SipNode.Dict dict) {
        for (SipNode.DictEntry e : dict.entries()) {
          arguments.add(new AbiType.Named(e.key(), type(e.node(), raw.arguments())));
        }
      } else {
        arguments.add(type(root, raw.arguments()));
      }
    }
    List<AbiType> results = new ArrayList<>();
    if (sip.results().isPresent()) {
      SipNode root = sip.results().get();
      if (root instanceof SipNode.Sequence sequence) {
        for (SipNode.SequenceEntry e : sequence.entries()) {
          results.add(type(e.node(), raw.results()));
        }
      } else {
        results.add(type(root, raw.results()));
      }
    }
    FunctionSignature structured =
        FunctionSignature.of(arguments, results, ReflectionFormat.V0_SIP);
    return new SipStructure(sip, raw, structured);
  }

  /**
   * The input tree, if the function has inputs: its leaves index the raw arguments.
   *
   * @return the input tree, or empty for a function without inputs
   */
  public java.util.Optional<SipNode> inputs() {
    return sip.inputs();
  }

  /**
   * The result tree, if the function has results: its leaves index the raw results.
   *
   * @return the result tree, or empty for a function without results
   */
  public java.util.Optional<SipNode> results() {
    return sip.results();
  }

  private static void checkCount(String side, int leaves, int raw) {
    if (leaves != raw) {
      throw new AbiParseException(
          ReflectionFormat.V0_SIP,
          side + "s",
          "the SIP signature has "
              + leaves
              + " "
              + side
              + " leaves but the raw signature (f) has "
              + raw
              + " "
              + side
              + "s; each raw slot must be filled by exactly one leaf");
    }
  }

  private static AbiType type(SipNode node, List<AbiType> raw) {
    if (node instanceof SipNode.Leaf leaf) {
      return raw.get(leaf.rawIndex());
    }
    if (node instanceof SipNode.Sequence sequence) {
      List<AbiType> elements = new ArrayList<>();
      for (SipNode.SequenceEntry e : sequence.entries()) {
        elements.add(type(e.node(), raw));
      }
      return new AbiType.Sequence(AbiType.SequenceKind.TUPLE, elements);
    }
    List<AbiType.Entry> entries = new ArrayList<>();
    for (SipNode.DictEntry e : ((SipNode.Dict) node).entries()) {
      entries.add(new AbiType.Entry(e.key(), type(e.node(), raw)));
    }
    return new AbiType.Dict(entries);
  }
}
