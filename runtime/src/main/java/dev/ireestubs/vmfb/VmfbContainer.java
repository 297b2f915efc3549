package dev.ireestubs.vmfb;

/** How the module's FlatBuffer is wrapped in the file. */
public enum VmfbContainer {
  /**
   * A plain FlatBuffer: root offset at byte 0, file identifier at bytes 4..7. Every {@code .vmfb}
   * before 2022-05-20.
   */
  BARE("bare FlatBuffer"),
  /**
   * {@code [u32 length][FlatBuffer]}, identifier at bytes 8..11, optionally followed by external
   * read-only data aligned to 64 bytes (from 2022-05-20, when not written as a ZIP archive).
   */
  SIZE_PREFIXED("size-prefixed FlatBuffer"),
  /**
   * A ZIP archive whose stored entry {@code module.fb} holds the size-prefixed FlatBuffer, followed
   * by executable entries (IREE's default output from 2022-05-25).
   */
  ZIP("ZIP archive (module.fb)");

  private final String displayName;

  VmfbContainer(String displayName) {
    this.displayName = displayName;
  }

  /**
   * How messages name this container, e.g. {@code ZIP archive (module.fb)}.
   *
   * @return the container's name as messages and the inspector print it
   */
  public String displayName() {
    return displayName;
  }

  @Override
  public String toString() {
    return displayName;
  }
}
