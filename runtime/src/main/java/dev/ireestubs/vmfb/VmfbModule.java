package dev.ireestubs.vmfb;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@link VmfbReader} read from a compiled IREE module ({@code .vmfb}): identity, container,
 * schema era, module attributes and every export with its calling convention and reflection.
 * Immutable; holds no reference to the bytes it was read from.
 *
 * @param sourceName the file or name given to the reader, as used in messages
 * @param container how the FlatBuffer is wrapped
 * @param sizePrefixed whether the FlatBuffer carries a u32 size prefix (always inside a ZIP)
 * @param flatBufferOffset where the FlatBuffer itself (root offset, identifier) starts in the
 *     source, after any ZIP header and size prefix
 * @param fileIdentifier {@code BMOD} (until 2021-05-05) or {@code IREE}
 * @param schemaEra the {@code BytecodeModuleDef} layout the module was read with
 * @param name the module name (namespace of fully-qualified function names), e.g. {@code module}
 * @param version the module version ({@code version}, since 2022-08; 0 when unset or older)
 * @param bytecodeVersion {@code bytecode_version}, present from the 2022-05 layout on
 * @param attributes module-level attributes (since 2022-06; empty before)
 * @param exports the exported functions, in stored order
 * @param internalFunctions the {@code internal_functions} table (until 2021-09; empty after)
 * @param imports the imported functions, in stored order (their ordinals)
 * @param parameterScopes the parameter scopes the module's {@code io_parameters} calls name, sorted
 *     and distinct (found in the bytecode of modules of the 2023 layout; see {@link
 *     #needsParameters()})
 * @param dependencies the dependency table: the modules it needs at a minimum version (since
 *     2022-08; empty before), see {@link #halRequirement()}
 */
public record VmfbModule(
    String sourceName,
    VmfbContainer container,
    boolean sizePrefixed,
    long flatBufferOffset,
    String fileIdentifier,
    VmfbSchemaEra schemaEra,
    String name,
    long version,
    Optional<BytecodeVersion> bytecodeVersion,
    VmfbAttributes attributes,
    List<VmfbExport> exports,
    List<VmfbInternalFunction> internalFunctions,
    List<VmfbImport> imports,
    List<String> parameterScopes,
    List<VmfbDependency> dependencies) {

  /**
   * Refuses null components and copies the lists, so that a module read once cannot change.
   *
   * @param sourceName the file or name given to the reader, as used in messages
   * @param container how the FlatBuffer is wrapped
   * @param sizePrefixed whether the FlatBuffer carries a u32 size prefix (always inside a ZIP)
   * @param flatBufferOffset where the FlatBuffer itself (root offset, identifier) starts in the
   *     source, after any ZIP header and size prefix
   * @param fileIdentifier {@code BMOD} (until 2021-05-05) or {@code IREE}
   * @param schemaEra the {@code BytecodeModuleDef} layout the module was read with
   * @param name the module name (namespace of fully-qualified function names), e.g. {@code module}
   * @param version the module version ({@code version}, since 2022-08; 0 when unset or older)
   * @param bytecodeVersion {@code bytecode_version}, present from the 2022-05 layout on
   * @param attributes module-level attributes (since 2022-06; empty before)
   * @param exports the exported functions, in stored order
   * @param internalFunctions the {@code internal_functions} table (until 2021-09; empty after)
   * @param imports the imported functions, in stored order (their ordinals)
   * @param parameterScopes the parameter scopes the module's {@code io_parameters} calls name,
   *     sorted and distinct (found in the bytecode of modules of the 2023 layout; see {@link
   *     #needsParameters()})
   * @param dependencies the dependency table (since 2022-08; empty before)
   */
  public VmfbModule {
    Objects.requireNonNull(sourceName, "sourceName");
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(fileIdentifier, "fileIdentifier");
    Objects.requireNonNull(schemaEra, "schemaEra");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(bytecodeVersion, "bytecodeVersion");
    Objects.requireNonNull(attributes, "attributes");
    exports = List.copyOf(exports);
    internalFunctions = List.copyOf(internalFunctions);
    imports = List.copyOf(imports);
    parameterScopes = List.copyOf(parameterScopes);
    dependencies = List.copyOf(dependencies);
  }

  /**
   * What the module requires of IREE's HAL module, and so which runtime generation can load it: a
   * module compiled by IREE 3.11 or earlier needs HAL 0.6 and does not load on a 3.12 runtime, nor
   * the reverse.
   *
   * @return the requirement read from the dependency table and the {@code hal} imports
   */
  public HalRequirement halRequirement() {
    return HalRequirement.of(dependencies, imports);
  }

  /**
   * Whether the module loads weights from parameter archives: it has a required import of IREE's
   * {@code io_parameters} module, which must then be registered before it (with the archives for
   * {@link #parameterScopes()}).
   *
   * @return true when a required {@code io_parameters} import exists
   */
  public boolean needsParameters() {
    for (VmfbImport i : imports) {
      if (!i.optional() && i.moduleName().equals("io_parameters")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first export with this name.
   *
   * @param exportName the export's name as the module stores it, such as {@code predict}
   * @return the export, or empty when the module has none by that name
   */
  public Optional<VmfbExport> export(String exportName) {
    Objects.requireNonNull(exportName, "exportName");
    for (VmfbExport e : exports) {
      if (e.name().equals(exportName)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  /**
   * The export names in stored order.
   *
   * @return the name of every export, unmodifiable
   */
  public List<String> exportNames() {
    return exports.stream().map(VmfbExport::name).collect(Collectors.toUnmodifiableList());
  }
}
