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
    assertThat(stage).contains("else=\"${data.home}/iree-stubs/iree-runtime\"");
    assertThat(stage).contains("else=\"${installs}/${release}/${platform}\"");
  }

  @Test
  void theJarIsOfTheReleaseAndNamedAsTheLoaderSays() throws IOException {
    String parent = Files.readString(PROJECT.resolve("pom.xml"));
    String module = Files.readString(PROJECT.resolve("runtime-iree-native/pom.xml"));
    String bom = Files.readString(PROJECT.resolve("bom/pom.xml"));
    assertThat(parent).contains("<iree.release>" + IreeLibrary.IREE_VERSION + "</iree.release>");
    // Each platform as the JVM there reports it: the parent's profile for that machine, the
    // module's stage (directory name) and jar (classifier), and the BOM's managed classifier.
    String[][] platforms = {
      {"Linux", "amd64"},
      {"Linux", "aarch64"},
      {"Mac OS X", "x86_64"},
      {"Mac OS X", "aarch64"},
      {"Windows 11", "amd64"}
    };
    for (String[] machine : platforms) {
      NativePlatform platform = NativePlatform.of(machine[0], machine[1]);
      assertThat(parent)
          .contains(
              "<iree.native.platform>"
                  + platform.directory()
                  + "</iree.native.platform>\n"
                  + "        <iree.native.classifier>"
                  + platform.classifier()
                  + "</iree.native.classifier>\n"
                  + "        <iree.native.library>"
                  + platform.libraryName()
                  + "</iree.native.library>");
      assertThat(module)
          .contains(
              "<property name=\"platform\" value=\""
                  + platform.directory()
                  + "\"/>\n"
                  + "                  <property name=\"library\" value=\""
                  + platform.libraryName()
                  + "\"/>");
      assertThat(module)
          .contains(
              "<classifier>"
                  + platform.classifier()
                  + "</classifier>\n"
                  + "              <classesDirectory>${project.build.directory}/native/"
                  + platform.directory()
                  + "</classesDirectory>");
      assertThat(bom).contains("<classifier>" + platform.classifier() + "</classifier>");
    }
    assertThat(module)
        .contains(
            "<artifactId>"
                + ClassPathLibrary.ARTIFACT.substring(ClassPathLibrary.ARTIFACT.indexOf(':') + 1)
                + "</artifactId>\n  <packaging>pom</packaging>");
  }
}
