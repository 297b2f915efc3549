package dev.ireestubs.invoke;

import java.util.List;

/** A {@code module.function} name that the backend does not export. */
public class IreeFunctionNotFoundException extends IreeException {
  private static final long serialVersionUID = 1L;

  /** The qualified name that was looked up. */
  private final String qualifiedName;

  /**
   * An exception for a function the backend does not export; the message lists those it does.
   *
   * @param qualifiedName the name looked up, {@code module.function}
   * @param available the functions the backend does export, for the message
   */
  public IreeFunctionNotFoundException(String qualifiedName, List<String> available) {
    super(
        "no function '"
            + qualifiedName
            + "' is loaded"
            + (available.isEmpty()
                ? " (no functions are loaded)"
                : "; loaded: " + String.join(", ", available)));
    this.qualifiedName = qualifiedName;
  }

  /**
   * The name looked up.
   *
   * @return the qualified name that no loaded module exports
   */
  public String qualifiedName() {
    return qualifiedName;
  }
}
