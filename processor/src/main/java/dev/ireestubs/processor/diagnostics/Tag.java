package dev.ireestubs.processor.diagnostics;

/**
 * The stable tag that starts every diagnostic, so users (and tests) can search for a kind of
 * problem: {@code [IreeSignatureMismatch] predict: features.image is ...}.
 */
public enum Tag {
  /** A Java type, arity, name or key that does not match the function's signature. */
  SIGNATURE_MISMATCH("IreeSignatureMismatch"),
  /** The method's function is not in the module's reflection. */
  UNKNOWN_FUNCTION("IreeUnknownFunction"),
  /**
   * A method that returns a future, whose function has no asynchronous export (none that takes a
   * wait and a signal fence).
   */
  NOT_ASYNC("IreeNotAsync"),
  /**
   * A reflection file, compiled module or inline reflection that cannot be found, read or parsed.
   */
  BAD_REFLECTION("IreeBadReflection"),
  /** A method whose function has no reflection at all. */
  NO_REFLECTION("IreeNoReflection"),
  /** A type record no Java type binds to (sdict_kwargs, f16 scalars, complex ndarrays, ...). */
  UNSUPPORTED_TYPE("IreeUnsupportedType"),
  /**
   * Reflection in a compiled module that could not be used, so a poorer source was (a warning): an
   * {@code iree.abi.declaration} that does not parse, checked against the calling convention.
   */
  REFLECTION_FALLBACK("IreeReflectionFallback"),
  /** An annotated element or method the stub cannot implement (a class, a generic method...). */
  BAD_INTERFACE("IreeBadInterface"),
  /** A type the generated stub, in the interface's package, cannot access. */
  INACCESSIBLE_TYPE("IreeInaccessibleType"),
  /** A type that never resolved, not even after the last round of processing. */
  UNRESOLVED_TYPE("IreeUnresolvedType"),
  /** An annotation that has no effect where it is (a warning). */
  IGNORED_ANNOTATION("IreeIgnoredAnnotation"),
  /**
   * A class the generated stub would call is not on the class path: its optional artifact is
   * missing (iree-stubs-pydm for a method of the IREEPyDM convention).
   */
  MISSING_DEPENDENCY("IreeMissingDependency"),
  /** A failure of the processor itself. */
  INTERNAL_ERROR("IreeInternalError");

  private final String text;

  Tag(String text) {
    this.text = text;
  }

  /** {@code [IreeSignatureMismatch] }: the prefix of a message. */
  public String prefix() {
    return "[" + text + "] ";
  }

  @Override
  public String toString() {
    return text;
  }
}
