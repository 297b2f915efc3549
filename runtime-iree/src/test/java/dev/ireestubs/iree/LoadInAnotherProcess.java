package dev.ireestubs.iree;

import java.nio.file.Path;

/**
 * For {@link LoadingAttacksTest}: loads the library its argument names (a bare name resolves
 * against the working directory) and prints what happened, in a process of its own, whose
 * environment (LD_LIBRARY_PATH) the test sets.
 */
final class LoadInAnotherProcess {
  private LoadInAnotherProcess() {}

  public static void main(String[] args) {
    try {
      System.out.println("loaded " + IreeLibrary.load(Path.of(args[0])));
    } catch (IreeLibraryException e) {
      System.out.println(e.getMessage());
    }
  }
}
