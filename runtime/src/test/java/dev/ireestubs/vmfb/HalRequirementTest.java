package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The decision of {@link HalRequirement#generation()} on hand-made dependency tables and imports.
 */
class HalRequirementTest {

  private static final String OLD_DISPATCH = "0rriiiiICiDCiirIID_v";
  private static final String NEW_DISPATCH = "0rrIiiiICiDCiirIID_v";

  private static VmfbImport imp(String name, String cconv) {
    return new VmfbImport(name, Optional.ofNullable(cconv), false);
  }

  private static List<VmfbDependency> hal(long version) {
    return List.of(new VmfbDependency("hal", version, false));
  }

  @Test
  void aCompiled311ModuleNeeds311() {
    HalRequirement r =
        HalRequirement.of(
            hal(6),
            List.of(
                imp("hal.buffer.assert", "0rrrIii_v"),
                imp(HalRequirement.DISPATCH_IMPORT, OLD_DISPATCH)));
    assertThat(r.generation()).isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
    assertThat(r.describe()).isEqualTo("IREE ≤ 3.11 (hal 0.6)");
    assertThat(r.dispatchCallingConvention()).hasValue(OLD_DISPATCH);
  }

  @Test
  void aHal07ModuleNeeds312() {
    HalRequirement r =
        HalRequirement.of(hal(7), List.of(imp(HalRequirement.DISPATCH_IMPORT, NEW_DISPATCH)));
    assertThat(r.generation()).isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(r.describe()).isEqualTo("IREE 3.12+ (hal 0.7)");
  }

  @Test
  void eachPieceOfHal07EvidenceSufficesAlone() {
    assertThat(HalRequirement.of(hal(7), List.of(imp("hal.devices.count", "0v_i"))).generation())
        .isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(
            HalRequirement.of(List.of(), List.of(imp(HalRequirement.DISPATCH_IMPORT, NEW_DISPATCH)))
                .generation())
        .isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(
            HalRequirement.of(hal(6), List.of(imp(HalRequirement.LOOKUP_FUNCTION_IMPORT, "0rr_I")))
                .generation())
        .isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(
            HalRequirement.of(
                    List.of(),
                    List.of(imp(HalRequirement.DISPATCH_INDIRECT_IMPORT, "0rrIirIICiDCiirIID_v")))
                .generation())
        .isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
  }

  @Test
  void theOldIndirectDispatchNeeds311() {
    assertThat(
            HalRequirement.of(
                    List.of(),
                    List.of(imp(HalRequirement.DISPATCH_INDIRECT_IMPORT, "0rriirIICiDCiirIID_v")))
                .generation())
        .isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
  }

  @Test
  void aModuleWithoutChangedImportsLoadsOnEither() {
    HalRequirement none = HalRequirement.of(List.of(), List.of());
    assertThat(none.generation()).isEqualTo(RuntimeGeneration.ANY);
    assertThat(none.importsHal()).isFalse();
    assertThat(none.describe()).isEqualTo("any IREE runtime (no generation-specific HAL imports)");
    HalRequirement bufferViews =
        HalRequirement.of(hal(6), List.of(imp("hal.buffer_view.dim", "0ri_I")));
    assertThat(bufferViews.generation()).isEqualTo(RuntimeGeneration.ANY);
    assertThat(bufferViews.describe())
        .isEqualTo("any IREE runtime (no generation-specific HAL imports; asks for hal 0.6)");
  }

  @Test
  void contradictionsNewerHalsAndUnrecordedDispatchesAreUnknown() {
    assertThat(
            HalRequirement.of(hal(7), List.of(imp(HalRequirement.DISPATCH_IMPORT, OLD_DISPATCH)))
                .generation())
        .isEqualTo(RuntimeGeneration.UNKNOWN);
    assertThat(HalRequirement.of(hal(8), List.of()).generation())
        .isEqualTo(RuntimeGeneration.UNKNOWN);
    HalRequirement unrecorded =
        HalRequirement.of(List.of(), List.of(imp(HalRequirement.DISPATCH_IMPORT, null)));
    assertThat(unrecorded.generation()).isEqualTo(RuntimeGeneration.UNKNOWN);
    assertThat(unrecorded.describe()).isEqualTo("an unknown IREE runtime generation (dispatch ?)");
    assertThat(
            HalRequirement.of(List.of(), List.of(imp(HalRequirement.DISPATCH_IMPORT, "0rrf_v")))
                .generation())
        .isEqualTo(RuntimeGeneration.UNKNOWN);
  }

  @Test
  void generationsLoadOnTheirOwnRuntimesOnly() {
    RuntimeGeneration old = RuntimeGeneration.IREE_3_11_AND_EARLIER;
    RuntimeGeneration current = RuntimeGeneration.IREE_3_12_AND_LATER;
    assertThat(old.loadsOn(old)).isTrue();
    assertThat(current.loadsOn(current)).isTrue();
    assertThat(old.loadsOn(current)).isFalse();
    assertThat(current.loadsOn(old)).isFalse();
    for (RuntimeGeneration g : RuntimeGeneration.values()) {
      assertThat(RuntimeGeneration.ANY.loadsOn(g)).isTrue();
      assertThat(RuntimeGeneration.UNKNOWN.loadsOn(g)).isTrue();
      assertThat(g.loadsOn(RuntimeGeneration.UNKNOWN)).isTrue();
    }
  }

  @Test
  void halVersionsMapToGenerations() {
    assertThat(RuntimeGeneration.ofHalVersion(5))
        .isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
    assertThat(RuntimeGeneration.ofHalVersion(6))
        .isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
    assertThat(RuntimeGeneration.ofHalVersion(7)).isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(RuntimeGeneration.ofHalVersion(8)).isEqualTo(RuntimeGeneration.UNKNOWN);
    assertThat(RuntimeGeneration.ofHalVersion(-1)).isEqualTo(RuntimeGeneration.UNKNOWN);
    assertThat(RuntimeGeneration.halVersionName(7)).isEqualTo("0.7");
    assertThat(RuntimeGeneration.halVersionName(0x10002)).isEqualTo("1.2");
  }
}
