package dev.ireestubs.iree;

import dev.ireestubs.vmfb.RuntimeGeneration;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which IREE release a loaded runtime library is, and so which generation of modules it loads: read
 * from the {@code BUILD-INFO} the build script writes beside the library ({@code iree.version}, and
 * {@code hal.module.version} where the script recorded it), else unknown. An unknown release
 * refuses nothing: IREE's own checks decide then.
 *
 * @param version the IREE release, e.g. {@code 3.11.0} or {@code 3.12.0rc20260822}; empty when
 *     unknown
 * @param generation the generation of modules it loads ({@link RuntimeGeneration#UNKNOWN} when
 *     unknown)
 * @param halVersion the version of the HAL module it registers (6 for 0.6, 7 for 0.7), -1 when
 *     unknown
 */
record RuntimeRelease(Optional<String> version, RuntimeGeneration generation, long halVersion) {

  /** The key of {@code BUILD-INFO} that records the HAL module version, e.g. {@code 0.7}. */
  static final String HAL_KEY = "hal.module.version";

  private static final Pattern RELEASE =
      Pattern.compile("(\\d{1,4})\\.(\\d{1,4})\\.\\d{1,4}(?:rc\\d{8})?");
  private static final Pattern HAL = Pattern.compile("(\\d{1,4})\\.(\\d{1,4})");
  private static final int FIRST_MINOR_WITH_HAL_0_7 = 12;

  RuntimeRelease {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(generation, "generation");
  }

  /** A library without (readable) {@code BUILD-INFO}. */
  static RuntimeRelease unknown() {
    return new RuntimeRelease(Optional.empty(), RuntimeGeneration.UNKNOWN, -1);
  }

  /** The release {@code info} describes. */
  static RuntimeRelease of(BuildInfo info) {
    long hal = -1;
    String recorded = info.entries().get(HAL_KEY);
    if (recorded != null) {
      Matcher m = HAL.matcher(recorded);
      if (m.matches()) {
        hal = (Long.parseLong(m.group(1)) << 16) | Long.parseLong(m.group(2));
      }
    }
    if (hal < 0) {
      hal = halVersionOf(info.version());
    }
    return new RuntimeRelease(
        Optional.of(info.version()),
        hal < 0 ? RuntimeGeneration.UNKNOWN : RuntimeGeneration.ofHalVersion(hal),
        hal);
  }

  /** Whether {@code name} is an IREE release name: {@code 3.11.0}, {@code 3.12.0rc20260822}. */
  static boolean isReleaseName(String name) {
    return RELEASE.matcher(name).matches();
  }

  /**
   * The HAL module version of an IREE release by its name: 6 up to 3.11, 7 from 3.12 (the releases
   * 3.12 to 3.14 share it); -1 for a name that is no release.
   */
  static long halVersionOf(String release) {
    Matcher m = RELEASE.matcher(release);
    if (!m.matches()) {
      return -1;
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    boolean current = major > 3 || (major == 3 && minor >= FIRST_MINOR_WITH_HAL_0_7);
    return current
        ? RuntimeGeneration.IREE_3_12_AND_LATER.halVersion()
        : RuntimeGeneration.IREE_3_11_AND_EARLIER.halVersion();
  }

  /**
   * The release of the library {@code library}, from the {@code BUILD-INFO} beside it (a regular
   * file naming that library); unknown when there is none or it cannot be read.
   */
  static RuntimeRelease beside(Path library) {
    return BuildInfo.beside(library).map(RuntimeRelease::of).orElseGet(RuntimeRelease::unknown);
  }

  /** E.g. {@code 3.12.0rc20260822 (hal 0.7)}, or {@code of an unknown release (no BUILD-INFO)}. */
  String describe() {
    if (version.isEmpty()) {
      return "of an unknown release (no " + BuildInfo.FILE_NAME + ")";
    }
    return version.get()
        + (halVersion < 0 ? "" : " (hal " + RuntimeGeneration.halVersionName(halVersion) + ")");
  }
}
