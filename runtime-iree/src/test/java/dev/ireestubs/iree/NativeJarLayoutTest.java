package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The native jar runtime-iree-native builds is laid out where {@link ClassPathLibrary} looks, for
 * the release {@link IreeLibrary} targets; checked on the build files, so no IREE is needed.
 */
class NativeJarLayoutTest {

  private static final Path PROJECT = Path.of("..");

  @Test
  void theJarHoldsTheLibraryWhereTheLoaderLooks() throws IOException {
    String stage = Files.readString(PROJECT.resolve("runtime-iree-native/stage-library.xml"));
    assertThat(stage).contains("value=\"" + ClassPathLibrary.ROOT + "${release}/${platform}\"");
    assertThat(stage).contains("<copy file=\"${lib.file}\" todir=\"${staging}/${entry.dir}\"/>");
    assertThat(stage).contains("<copy file=\"${info.file}\" todir=\"${staging}/${entry.dir}\"/>");
    assertThat(stage).contains("location=\"${install.prefix}/lib/" + BuildInfo.FILE_NAME + "\"");
    assertThat(stage)
        .contains(
            "<attribute name=\""
                + ClassPathLibrary.VERSION_ATTRIBUTE
                + "\" value=\"${info.iree.version}\"/>");
    assertThat(stage)
        .contains(
            "<attribute name=\""
                + ClassPathLibrary.PLATFORM_ATTRIBUTE
                + "\" value=\"${info.platform}\"/>");
    // The build script's install layout, which the stage reads.
    assertThat(stage)
        .contains("else=\"${data.home}/iree-stubs/iree-runtime/${release}/${platform}\"");
  }

  @Test
  void theJarIsOfTheReleaseAndNamedAsTheLoaderSays() throws IOException {
    String parent = Files.readString(PROJECT.resolve("pom.xml"));
    assertThat(parent).contains("<iree.release>" + IreeLibrary.IREE_VERSION + "</iree.release>");
    for (String platform :
        new String[] {"linux-x86_64", "linux-aarch64", "macos-x86_64", "macos-aarch64"}) {
      String os = platform.substring(0, platform.indexOf('-'));
      assertThat(parent)
          .contains(
              "<iree.native.platform>"
                  + platform
                  + "</iree.native.platform>\n"
                  + "        <iree.native.library>"
                  + LibraryLocator.libraryName(os)
                  + "</iree.native.library>");
    }
    String module = Files.readString(PROJECT.resolve("runtime-iree-native/pom.xml"));
    assertThat(module)
        .contains(
            "<artifactId>"
                + ClassPathLibrary.ARTIFACT.substring(ClassPathLibrary.ARTIFACT.indexOf(':') + 1)
                + "</artifactId>\n  <packaging>pom</packaging>");
    assertThat(module).contains("<classifier>${iree.native.platform}</classifier>");
  }
}
