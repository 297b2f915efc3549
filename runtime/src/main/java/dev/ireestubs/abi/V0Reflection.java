package dev.ireestubs.abi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The deprecated V0 reflection attributes of one function (2019 .. 2021-06), read from its
 * reflection map, with the signatures parsed:
 *
 * <ul>
 *   <li>{@code fv} = {@code "1"} and {@code f} = the raw signature ({@link V0RawSignature});
 *   <li>{@code fbr}: the name of a result-allocator function. IREE's design doc describes it; no
 *       emitter is known, and this library only keeps the name;
 *   <li>{@code abi} = {@code "sip"}, {@code sip} (the doc's name) or {@code abi} (what the compiler
 *       set, as an integer attribute that never reached a {@code .vmfb}) = {@code 1}, and {@code
 *       sip} = the structure signature ({@link SipSignature}).
 * </ul>
 *
 * <p>Version values are kept as written and not checked; every known V0 producer wrote 1.
 *
 * @param rawVersion {@code fv}
 * @param raw {@code f}, parsed
 * @param resultAllocator {@code fbr}
 * @param abi {@code abi}, {@code "sip"} when a SIP signature is present
 * @param sipVersion {@code sip}, else {@code abi}
 * @param sip {@code sip}, parsed (not {@linkplain SipSignature#validate() validated})
 */
public record V0Reflection(
    Optional<String> rawVersion,
    Optional<FunctionSignature> raw,
    Optional<String> resultAllocator,
    Optional<String> abi,
    Optional<String> sipVersion,
    Optional<SipSignature> sip) {

  /** The key of the raw signature's version, {@code "1"}. */
  public static final String RAW_VERSION_KEY = "fv";

  /** The key of the raw signature. */
  public static final String RAW_KEY = "f";

  /** The key of the result-allocator function's name. */
  public static final String RESULT_ALLOCATOR_KEY = "fbr";

  /** The key naming the structured ABI, {@code "sip"}. */
  public static final String ABI_KEY = "abi";

  /** The key of the SIP version as IREE's design doc names it. */
  public static final String SIP_VERSION_KEY = "sipv";

  /** The key of the SIP version as IREE's TF compiler wrote it. */
  public static final String ABI_VERSION_KEY = "abiv";

  /** The key of the SIP signature. */
  public static final String SIP_KEY = "sip";

  /**
   * Refuses null components (an absent attribute is an empty {@code Optional}).
   *
   * @param rawVersion {@code fv}
   * @param raw {@code f}, parsed
   * @param resultAllocator {@code fbr}
   * @param abi {@code abi}, {@code "sip"} when a SIP signature is present
   * @param sipVersion {@code sip}, else {@code abi}
   * @param sip {@code sip}, parsed (not {@linkplain SipSignature#validate() validated})
   */
  public V0Reflection {
    Objects.requireNonNull(rawVersion, "rawVersion");
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(resultAllocator, "resultAllocator");
    Objects.requireNonNull(abi, "abi");
    Objects.requireNonNull(sipVersion, "sipVersion");
    Objects.requireNonNull(sip, "sip");
  }

  /**
   * The V0 attributes in {@code reflection}, one function's reflection attributes (other keys, such
   * as {@code iree.abi}, are ignored); empty when it has none of {@code fv}, {@code f}, {@code
   * fbr}, {@code sip}, {@code sipv}, {@code abiv}, nor {@code abi = "sip"}.
   *
   * @param reflection one function's reflection attributes
   * @return the V0 attributes parsed, or empty when there are none
   * @throws AbiParseException when {@code f} or {@code sip} does not parse
   */
  public static Optional<V0Reflection> from(Map<String, String> reflection) {
    Objects.requireNonNull(reflection, "reflection");
    Optional<String> f = get(reflection, RAW_KEY);
    Optional<String> sipText = get(reflection, SIP_KEY);
    Optional<String> abi = get(reflection, ABI_KEY);
    Optional<String> sipVersion =
        get(reflection, SIP_VERSION_KEY).or(() -> get(reflection, ABI_VERSION_KEY));
    Optional<String> rawVersion = get(reflection, RAW_VERSION_KEY);
    Optional<String> allocator = get(reflection, RESULT_ALLOCATOR_KEY);
    boolean any =
        f.isPresent()
            || sipText.isPresent()
            || sipVersion.isPresent()
            || rawVersion.isPresent()
            || allocator.isPresent()
            || abi.filter("sip"::equals).isPresent();
    if (!any) {
      return Optional.empty();
    }
    return Optional.of(
        new V0Reflection(
            rawVersion,
            f.map(V0RawSignature::parse),
            allocator,
            abi,
            sipVersion,
            sipText.map(SipSignature::parse)));
  }

  /**
   * The SIP structure combined with the raw signature, when this function has both ({@code f} and
   * {@code sip}).
   *
   * @return the structure, or empty when {@code f} or {@code sip} is missing
   * @throws AbiParseException when the SIP's leaves do not fill the raw slots exactly once
   */
  public Optional<SipStructure> structure() {
    if (raw.isEmpty() || sip.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(SipStructure.of(sip.get(), raw.get()));
  }

  private static Optional<String> get(Map<String, String> reflection, String key) {
    return Optional.ofNullable(reflection.get(key));
  }
}
