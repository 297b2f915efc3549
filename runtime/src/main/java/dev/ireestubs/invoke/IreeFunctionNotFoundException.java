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
    this(
        qualifiedName,
        "no function '"
            + qualifiedName
            + "' is loaded"
            + (available.isEmpty()
                ? " (no functions are loaded)"
                : "; loaded: " + String.join(", ", available)));
  }

  private IreeFunctionNotFoundException(String qualifiedName, String message) {
    super(message);
    this.qualifiedName = qualifiedName;
  }

  /**
   * An exception for a function's name given alone that several loaded modules export.
   *
   * @param name the name looked up, without a module
   * @param exporting the qualified names of the functions it could mean
   * @return the exception, whose message lists them and says to name the module
   */
  public static IreeFunctionNotFoundException ambiguous(String name, List<String> exporting) {
    return new IreeFunctionNotFoundException(
        name,
        "function '"
            + name
            + "' is exported by several loaded modules ("
            + String.join(", ", exporting)
            + "): name one as module.function");
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
