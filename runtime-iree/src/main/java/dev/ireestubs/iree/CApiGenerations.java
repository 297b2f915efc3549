package dev.ireestubs.iree;

import java.lang.foreign.SymbolLookup;
import java.util.List;
import java.util.Optional;

/**
 * The generations of IREE's runtime C API iree-stubs binds to ({@link CApi}), and the picking of
 * one for a library. Apart from {@link CApi} so that the interface does not name its
 * implementations (which name it): the C API layer has no class cycle either.
 */
final class CApiGenerations {

  /** Every generation, oldest first. */
  static final List<CApi> ALL = List.of(new CApi311(), new CApi312());

  private CApiGenerations() {}

  /**
   * The generation of a library: the one its release names ({@code release}'s HAL version), which
   * must be the one whose {@link CApi#markers()} it exports; for a library of unknown release, the
   * one whose markers it exports; when it exports no generation's markers, the release's or else
   * the oldest (its missing symbols are then listed by {@link NativeSymbols#failIfMissing()}).
   *
   * @throws IreeLibraryException when the library's release and its exports disagree
   */
  static CApi of(SymbolLookup lookup, String libraryName, RuntimeRelease release) {
    Optional<CApi> exported =
        ALL.stream()
            .filter(g -> g.markers().stream().allMatch(s -> lookup.find(s).isPresent()))
            .findFirst();
    Optional<CApi> named =
        ALL.stream().filter(g -> g.halVersion() == release.halVersion()).findFirst();
    if (named.isPresent() && exported.isPresent() && named.get() != exported.get()) {
      throw new IreeLibraryException(
          "the IREE runtime library "
              + libraryName
              + " is "
              + release.describe()
              + " by its BUILD-INFO, but exports the C API of "
              + exported.get().describe()
              + " ("
              + String.join(", ", exported.get().markers())
              + "): the BUILD-INFO beside it belongs to another build; rebuild it with "
              + LibraryLocator.BUILD_SCRIPT);
    }
    return named.or(() -> exported).orElse(ALL.get(0));
  }
}
