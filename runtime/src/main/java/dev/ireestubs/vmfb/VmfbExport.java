package dev.ireestubs.vmfb;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.V0Reflection;
import java.util.Objects;
import java.util.Optional;

/**
 * One exported function of a module, with its calling convention and reflection attributes as
 * stored, and conveniences for the reflection formats this library parses.
 *
 * <p>Where the attributes live depends on the era: on the export's own signature until 2023-02
 * ({@code exported_functions[i].signature}), then in {@code function_signatures[internal_ordinal]}.
 * Until 2021-09 compilers put them on the internal function implementing the export instead: {@link
 * #reflection()} falls back to that function's attributes when the export's own are empty.
 *
 * @param name {@code local_name}, e.g. {@code simple_mul} or {@code main$async}
 * @param internalOrdinal the index of the implementing function
 * @param callingConvention e.g. {@code 0rr_r} (absent before 2020-09, when signatures had none)
 * @param attributes the reflection attributes stored with this export's signature, in order
 * @param implementation the implementing entry of {@code internal_functions}, for modules that have
 *     that table (until 2021-09)
 * @param bytecodeTypes the types the export's function body states (read when the calling
 *     convention has a ref), or why they could not be read
 * @param yieldReach whether a call of the export may run {@code vm.yield}, and the imports its
 *     calls reach, as the module's bytecode says
 */
public record VmfbExport(
    String name,
    int internalOrdinal,
    Optional<String> callingConvention,
    VmfbAttributes attributes,
    Optional<VmfbInternalFunction> implementation,
    BytecodeTypes bytecodeTypes,
    YieldReach yieldReach) {

  /** What an export made without reading its module's bytecode for yields says of them. */
  static final String YIELDS_NOT_READ = "the export's bytecode was not read for yields";

  /**
   * Refuses null components (an absent value is an empty {@code Optional}).
   *
   * @param name {@code local_name}, e.g. {@code simple_mul} or {@code main$async}
   * @param internalOrdinal the index of the implementing function
   * @param callingConvention e.g. {@code 0rr_r} (absent before 2020-09, when signatures had none)
   * @param attributes the reflection attributes stored with this export's signature, in order
   * @param implementation the implementing entry of {@code internal_functions}, for modules that
   *     have that table (until 2021-09)
   * @param bytecodeTypes the types the export's function body states (read when the calling
   *     convention has a ref), or why they could not be read
   * @param yieldReach whether a call of the export may run {@code vm.yield}, and the imports its
   *     calls reach, as the module's bytecode says
   */
  public VmfbExport {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(callingConvention, "callingConvention");
    Objects.requireNonNull(attributes, "attributes");
    Objects.requireNonNull(implementation, "implementation");
    Objects.requireNonNull(bytecodeTypes, "bytecodeTypes");
    Objects.requireNonNull(yieldReach, "yieldReach");
  }

  /**
   * An export whose body was not read for yields ({@link YieldReach#unread}).
   *
   * @param name {@code local_name}, e.g. {@code simple_mul} or {@code main$async}
   * @param internalOrdinal the index of the implementing function
   * @param callingConvention e.g. {@code 0rr_r} (absent before 2020-09, when signatures had none)
   * @param attributes the reflection attributes stored with this export's signature, in order
   * @param implementation the implementing entry of {@code internal_functions}, for modules that
   *     have that table (until 2021-09)
   * @param bytecodeTypes the types the export's function body states (read when the calling
   *     convention has a ref), or why they could not be read
   */
  public VmfbExport(
      String name,
      int internalOrdinal,
      Optional<String> callingConvention,
      VmfbAttributes attributes,
      Optional<VmfbInternalFunction> implementation,
      BytecodeTypes bytecodeTypes) {
    this(
        name,
        internalOrdinal,
        callingConvention,
        attributes,
        implementation,
        bytecodeTypes,
        YieldReach.unread(YIELDS_NOT_READ));
  }

  /**
   * An export whose body was not read for types ({@link BytecodeTypes#none()}) nor for yields.
   *
   * @param name {@code local_name}, e.g. {@code simple_mul} or {@code main$async}
   * @param internalOrdinal the index of the implementing function
   * @param callingConvention e.g. {@code 0rr_r} (absent before 2020-09, when signatures had none)
   * @param attributes the reflection attributes stored with this export's signature, in order
   * @param implementation the implementing entry of {@code internal_functions}, for modules that
   *     have that table (until 2021-09)
   */
  public VmfbExport(
      String name,
      int internalOrdinal,
      Optional<String> callingConvention,
      VmfbAttributes attributes,
      Optional<VmfbInternalFunction> implementation) {
    this(
        name, internalOrdinal, callingConvention, attributes, implementation, BytecodeTypes.none());
  }

  /**
   * The function's reflection: {@link #attributes()}, or when those are empty, the attributes of
   * the implementing internal function (modules before 2021-09), else empty.
   *
   * @return the attributes that describe this export's signature, possibly empty
   */
  public VmfbAttributes reflection() {
    if (!attributes.isEmpty() || implementation.isEmpty()) {
      return attributes;
    }
    return implementation.get().attributes();
  }

  /**
   * The raw {@code iree.abi.declaration} text (for people, not machines, per IREE).
   *
   * @return the declaration text, or empty when the export has none
   */
  public Optional<String> declaration() {
    return reflection().get(Reflection.DECLARATION);
  }

  /**
   * The raw {@code iree.abi} JSON text.
   *
   * @return the JSON text, or empty when the export has none
   */
  public Optional<String> abiJson() {
    return reflection().get(Reflection.IREE_ABI);
  }

  /**
   * The raw {@code iree.abi.model} value, e.g. {@code coarse-fences}.
   *
   * @return the calling model's name, or empty for the synchronous default
   */
  public Optional<String> abiModel() {
    return reflection().get(Reflection.MODEL);
  }

  /**
   * The best signature this export's reflection and bytecode give, chosen as everywhere in
   * iree-stubs ({@link Reflection#resolve(java.util.Map, String, BytecodeTypes)}): {@code iree.abi}
   * JSON, else the declaration, else V0 {@code f}, else the types its bytecode states, else the
   * calling convention; under the coarse-fences model when the reflection or the bytecode says the
   * export takes fences, or by IREE's naming of an {@code f$async} twin ({@link CoarseFences}).
   *
   * @return the signature with the attribute it came from and any warnings about attributes skipped
   * @throws AbiParseException when the chosen reflection does not parse
   * @throws IllegalArgumentException when the export has neither reflection nor a calling
   *     convention (modules before 2020-09)
   */
  public Reflection.Resolved signature() {
    return CoarseFences.resolve(
        name, reflection().asMap(), callingConvention.orElse(null), bytecodeTypes);
  }

  /**
   * The {@code iree.abi} JSON parsed, under {@link FunctionSignature.CallingModel#COARSE_FENCES}
   * when {@code iree.abi.model} says so; empty when the export has no {@code iree.abi}.
   *
   * @return the parsed signature, or empty when there is no {@code iree.abi} attribute
   * @throws AbiParseException when the JSON does not parse
   */
  public Optional<FunctionSignature> abiJsonSignature() {
    if (abiJson().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(signature().signature());
  }

  /**
   * The deprecated V0 reflection ({@code fv}/{@code f}, {@code sip}, ...) of modules before
   * 2021-06, parsed with {@link V0Reflection#from(java.util.Map)}; empty when there is none.
   *
   * @return the V0 attributes parsed, or empty when the export has none of them
   * @throws AbiParseException when {@code f} or {@code sip} does not parse
   */
  public Optional<V0Reflection> v0Reflection() {
    return V0Reflection.from(reflection().asMap());
  }
}
