package dev.ireestubs.cli;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.derive.ClientDeriver;
import dev.ireestubs.derive.InterfaceSuggestion;
import dev.ireestubs.derive.InterfaceWriter;
import dev.ireestubs.derive.JavaNames;
import dev.ireestubs.vmfb.VmfbAttributes;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code inspect} prints for one module: its identity, each export with its calling
 * convention, resolved signature and every reflection attribute, and the suggested Java interface.
 */
final class Inspector {

  private final VmfbModule module;
  private final String vmfb;

  /** One export's signature, or why it has none. */
  private record Resolution(
      VmfbExport export, Optional<Reflection.Resolved> resolved, String failure) {}

  private final List<Resolution> resolutions = new ArrayList<>();

  /**
   * @param module the module read
   * @param vmfb its file name, for {@code @IreeModule(vmfb = ...)}
   */
  Inspector(VmfbModule module, String vmfb) {
    this.module = Objects.requireNonNull(module, "module");
    this.vmfb = Objects.requireNonNull(vmfb, "vmfb");
    for (VmfbExport e : module.exports()) {
      resolutions.add(resolve(e));
    }
  }

  private static Resolution resolve(VmfbExport e) {
    try {
      return new Resolution(e, Optional.of(e.signature()), "");
    } catch (IllegalArgumentException | IllegalStateException ex) {
      // No reflection and no calling convention, malformed reflection (AbiParseException), or a
      // variadic calling convention.
      return new Resolution(e, Optional.empty(), ex.getMessage());
    }
  }

  /** The whole report. */
  String report() {
    StringBuilder sb = new StringBuilder();
    sb.append("module: ").append(module.name()).append(" (").append(identity()).append(")\n");
    if (!module.attributes().isEmpty()) {
      sb.append("attributes:\n");
      for (VmfbAttributes.Entry a : module.attributes().entries()) {
        sb.append("  ")
            .append(oneLine(a.key()))
            .append(" = ")
            .append(oneLine(a.value()))
            .append('\n');
      }
    }
    sb.append("runtime generation: ").append(module.halRequirement().describe()).append('\n');
    if (module.needsParameters()) {
      sb.append("parameters: needs external parameter archives (imports io_parameters); scopes: ")
          .append(
              module.parameterScopes().isEmpty()
                  ? "not found in the bytecode"
                  : String.join(
                      ", ",
                      module.parameterScopes().stream()
                          .map(Inspector::oneLine)
                          .map(x -> "'" + x + "'")
                          .toList()))
          .append(
              "\n  (IreeSession.load(vmfb, Parameters.builder().scope(SCOPE, file).build()))\n");
    }
    sb.append("exports:").append(module.exports().isEmpty() ? " none" : "").append('\n');
    for (Resolution r : resolutions) {
      appendExport(sb, r);
    }
    sb.append('\n');
    sb.append("Java interface (checked against this module by @IreeModule(vmfb = ")
        .append(JavaNames.stringLiteral(vmfb))
        .append(")):\n\n");
    sb.append(InterfaceWriter.write(suggestion(), ""));
    return sb.toString();
  }

  /**
   * E.g. {@code version 0, bytecode 17.0, ZIP archive (module.fb), identifier IREE, schema ...}.
   */
  private String identity() {
    return "version "
        + module.version()
        + ", bytecode "
        + module.bytecodeVersion().map(Object::toString).orElse("not recorded")
        + ", "
        + module.container().displayName()
        + ", identifier "
        + module.fileIdentifier()
        + ", schema "
        + module.schemaEra().name()
        + " ("
        + module.schemaEra().summary()
        + ")";
  }

  private static void appendExport(StringBuilder sb, Resolution r) {
    VmfbExport e = r.export();
    sb.append("  ")
        .append(oneLine(e.name()))
        .append("  ")
        .append(e.callingConvention().map(Inspector::oneLine).orElse("(no calling convention)"));
    if (r.resolved().isPresent()) {
      Reflection.Resolved resolved = r.resolved().get();
      sb.append("  (from ").append(resolved.source()).append(")\n");
      sb.append("    ").append(oneLine(resolved.signature().toString())).append('\n');
    } else {
      sb.append("\n    no usable signature: ").append(oneLine(r.failure())).append('\n');
    }
    VmfbAttributes reflection = e.reflection();
    if (e.attributes().isEmpty() && !reflection.isEmpty() && e.implementation().isPresent()) {
      sb.append("    reflection on internal function ")
          .append(
              oneLine(
                  e.implementation().get().name().orElse("#" + e.implementation().get().ordinal())))
          .append(":\n");
    }
    for (VmfbAttributes.Entry a : reflection.entries()) {
      sb.append("    ")
          .append(oneLine(a.key()))
          .append(" = ")
          .append(oneLine(a.value()))
          .append('\n');
    }
    if (r.resolved().isPresent()) {
      Reflection.Resolved resolved = r.resolved().get();
      for (String w : resolved.warnings()) {
        sb.append("    warning: ").append(oneLine(w)).append('\n');
      }
      FunctionSignature s = resolved.signature();
      // The same signature in the one format every IREE tool reads (for @IreeFunction(abi = ...)
      // or a reflection file); the calling convention's refs would print as "unknown", so not
      // for those.
      if (!resolved.source().equals(Reflection.IREE_ABI)
          && s.format() != ReflectionFormat.CALLING_CONVENTION
          && s.model() == FunctionSignature.CallingModel.SYNC) {
        sb.append("    as iree.abi JSON: ").append(oneLine(AbiJson.print(s))).append('\n');
      }
    }
  }

  /** The derived interface (the one {@code @IreeClient} generates), in the unnamed package. */
  InterfaceSuggestion suggestion() {
    return ClientDeriver.derive(module, vmfb, Optional.empty());
  }

  /** {@code s} on one line: line breaks and other control characters escaped. */
  static String oneLine(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c < 0x20 || c == 0x7F) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
