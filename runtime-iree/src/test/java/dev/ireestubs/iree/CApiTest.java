package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.vmfb.RuntimeGeneration;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which generation of IREE's C API a library is bound with: {@link CApi#of}. */
class CApiTest {

  private static final RuntimeRelease R311 =
      new RuntimeRelease(Optional.of("3.11.0"), RuntimeGeneration.IREE_3_11_AND_EARLIER, 6);
  private static final RuntimeRelease R312 =
      new RuntimeRelease(Optional.of("3.12.0rc20260822"), RuntimeGeneration.IREE_3_12_AND_LATER, 7);

  /** A library exporting exactly {@code names} (at a fake address). */
  private static SymbolLookup exporting(List<String> names) {
    MemorySegment somewhere = Arena.global().allocate(8);
    return name -> names.contains(name) ? Optional.of(somewhere) : Optional.empty();
  }

  private static final SymbolLookup LIB_311 = exporting(new CApi311().markers());
  private static final SymbolLookup LIB_312 = exporting(new CApi312().markers());

  @Test
  void theReleasePicksTheGenerationItsExportsConfirm() {
    assertThat(CApiGenerations.of(LIB_311, "lib", R311)).isInstanceOf(CApi311.class);
    assertThat(CApiGenerations.of(LIB_312, "lib", R312)).isInstanceOf(CApi312.class);
  }

  @Test
  void aLibraryOfUnknownReleaseIsToldByItsExports() {
    assertThat(CApiGenerations.of(LIB_311, "lib", RuntimeRelease.unknown()))
        .isInstanceOf(CApi311.class);
    assertThat(CApiGenerations.of(LIB_312, "lib", RuntimeRelease.unknown()))
        .isInstanceOf(CApi312.class);
  }

  @Test
  void aLibraryWithNeitherGenerationsMarkersFallsBackToItsReleaseElseTheOldest() {
    SymbolLookup none = exporting(List.of());
    assertThat(CApiGenerations.of(none, "lib", R312)).isInstanceOf(CApi312.class);
    assertThat(CApiGenerations.of(none, "lib", RuntimeRelease.unknown()))
        .isInstanceOf(CApi311.class);
  }

  @Test
  void aReleaseContradictedByTheExportsIsRefused() {
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class, () -> CApiGenerations.of(LIB_312, "libx.so", R311));
    assertThat(e).hasMessageThat().contains("libx.so is 3.11.0 (hal 0.6) by its BUILD-INFO");
    assertThat(e).hasMessageThat().contains("exports the C API of IREE 3.12 and later (hal 0.7)");
    assertThat(e).hasMessageThat().contains("iree_async_proactor_pool_create");
  }

  @Test
  void theDefaultSemaphoreFlagsAreEachGenerationsOwn() {
    // HOST_INTERRUPT moved from bit 2 to bit 1; EXPORTABLE_TIMEPOINTS stayed at bit 3.
    assertThat(new CApi311().semaphoreFlagsDefault()).isEqualTo(0xC);
    assertThat(new CApi312().semaphoreFlagsDefault()).isEqualTo(0xA);
  }

  @Test
  void eachGenerationRegistersItsHalVersion() {
    for (CApi g : CApiGenerations.ALL) {
      assertThat(RuntimeGeneration.ofHalVersion(g.halVersion()))
          .isNotEqualTo(RuntimeGeneration.UNKNOWN);
    }
    assertThat(CApiGenerations.ALL.stream().map(CApi::halVersion).distinct().count())
        .isEqualTo(CApiGenerations.ALL.size());
  }

  @Test
  void theVersionAskedForMustBeAReleaseName() {
    assertThat(LibraryLocator.release(null, null)).isEqualTo(IreeLibrary.IREE_VERSION);
    assertThat(LibraryLocator.release(" ", "")).isEqualTo(IreeLibrary.IREE_VERSION);
    assertThat(LibraryLocator.release(null, "3.12.0rc20260822")).isEqualTo("3.12.0rc20260822");
    assertThat(LibraryLocator.release(" 3.11.0 ", "3.12.0rc20260822")).isEqualTo("3.11.0");
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class, () -> LibraryLocator.release("../../../../tmp/x", null));
    assertThat(e).hasMessageThat().contains("system property iree.runtime.version");
    assertThat(e).hasMessageThat().contains("'../../../../tmp/x'");
    e = assertThrows(IreeLibraryException.class, () -> LibraryLocator.release(null, "3.11.0/.."));
    assertThat(e).hasMessageThat().contains("environment variable IREE_RUNTIME_VERSION");
    assertThrows(
        IllegalArgumentException.class, () -> IreeLibrary.conventionalPath("../../../../tmp/x"));
  }

  @Test
  void aCorpusModulesTwinIsItsHal07Port() {
    assertThat(Corpus.twinOf("vmfb/2026-08_djl-iree-engine_add_bc17.vmfb"))
        .hasValue("hal07/2026-08_djl-iree-engine_add_hal07.vmfb");
    assertThat(
            Corpus.twinOf("models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb"))
        .hasValue("hal07/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_hal07.vmfb");
    assertThat(Corpus.twinOf("vmfb/2021-06_iree_simple_embedding_rv64_noreflection.vmfb"))
        .isEmpty();
  }
}
