package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The BUILD-INFO file: what the script writes is what the loader reads; no IREE needed. */
class BuildInfoTest {

  private static final String SHA =
      "768999c8fb58983dc5746d6dbe734474c31058d617665c53cf5c09904e0d1f14";

  private static final String SCRIPT_OUTPUT =
      "# IREE's runtime library libiree_runtime.so, built by iree-stubs'"
          + " runtime-iree/scripts/build-iree-runtime.sh.\n"
          + "iree.version=3.11.0\n"
          + "iree.commit=e4a3b0405d7d23554da26403658d0e8c3c5ecf25\n"
          + "iree.provenance=git checkout at IREE v3.11.0's commit, pinned by"
          + " build-iree-runtime.sh\n"
          + "submodule.flatcc=9362cd00f0007d8cbee7bff86e90fb4b6b227ff3\n"
          + "platform=linux-x86_64\n"
          + "library=libiree_runtime.so\n"
          + "library.sha256="
          + SHA
          + "\n"
          + "library.size=1314640\n"
          + "compiler=cc (Debian 12.2.0-14+deb12u1) 12.2.0\n";

  @Test
  void readsWhatTheScriptWrites() {
    BuildInfo info = BuildInfo.parse(SCRIPT_OUTPUT, "here");
    assertThat(info.version()).isEqualTo("3.11.0");
    assertThat(info.platform()).isEqualTo("linux-x86_64");
    assertThat(info.library()).isEqualTo("libiree_runtime.so");
    assertThat(info.sha256()).isEqualTo(SHA);
    assertThat(info.size()).isEqualTo(1314640);
    assertThat(info.commit()).isEqualTo("e4a3b0405d7d23554da26403658d0e8c3c5ecf25");
    assertThat(info.entries()).containsEntry("compiler", "cc (Debian 12.2.0-14+deb12u1) 12.2.0");
    assertThat(
            BuildInfo.parse(
                    "library=a\nlibrary.sha256="
                        + SHA
                        + "\nlibrary.size=1\n"
                        + "iree.version=3.11.0\nplatform=p\n",
                    "here")
                .commit())
        .isEqualTo("unknown");
  }

  @Test
  void theScriptWritesEveryEntryTheLoaderNeeds() throws IOException {
    String script = Files.readString(Path.of("scripts", "build-iree-runtime.sh"));
    Matcher heredoc =
        Pattern.compile("cat > \"\\$INFO_TMP\" <<EOF\n(.*?)\nEOF\n", Pattern.DOTALL)
            .matcher(script);
    assertThat(heredoc.find()).isTrue();
    String written = heredoc.group(1);
    for (String key :
        new String[] {
          "iree.version=$VERSION",
          "iree.commit=$SOURCE_COMMIT",
          "submodule.flatcc=",
          "submodule.printf=",
          "submodule.benchmark=",
          "platform=$PLATFORM",
          "library=$LIB_NAME",
          "library.sha256=$LIB_SHA256",
          "library.size=$SIZE",
          "compiler=",
        }) {
      assertThat(written).contains("\n" + key);
    }
    assertThat(script).contains("mv -f \"$INFO_TMP\" \"$PREFIX/lib/" + BuildInfo.FILE_NAME + "\"");
    assertThat(written).contains("\n" + RuntimeRelease.HAL_KEY + "=$REL_HAL");
    // The release's pinned commit, the one BUILD-INFO records for the jar: its row of the
    // script's release table (release, tag, commit, ...), and the 3.12 candidate's.
    assertThat(script)
        .containsMatch(
            "\n"
                + Pattern.quote(IreeLibrary.IREE_VERSION)
                + " +v"
                + Pattern.quote(IreeLibrary.IREE_VERSION)
                + " +e4a3b0405d7d23554da26403658d0e8c3c5ecf25 +3\\.11\\.0\\.dev +0\\.6 ");
    assertThat(script)
        .containsMatch(
            "\n3\\.12\\.0rc20260822 +iree-3\\.12\\.0rc20260822"
                + " +b48a5955575cf8924ffc191f3b0804976e5738b9 +3\\.12\\.0\\.dev +0\\.7"
                + " +iree-as-module ");
  }

  @Test
  void eachEntryTheLoaderNeedsIsRequired() {
    for (String key :
        new String[] {"iree.version", "platform", "library", "library.sha256", "library.size"}) {
      String without = SCRIPT_OUTPUT.replaceAll("(?m)^" + Pattern.quote(key) + "=.*\n", "");
      IreeLibraryException e =
          assertThrows(IreeLibraryException.class, () -> BuildInfo.parse(without, "jar X"));
      assertThat(e)
          .hasMessageThat()
          .contains("the BUILD-INFO of IREE's runtime library in jar X has no " + key + " entry");
      assertThat(e).hasMessageThat().contains("rebuild it (the script, then 'mvn install");
    }
  }

  @Test
  void garbledValuesAreRefused() {
    assertThat(invalid("library.sha256=" + SHA, "library.sha256=" + SHA.toUpperCase()))
        .contains("which is not 64 lower-case hex digits");
    assertThat(invalid("library.sha256=" + SHA, "library.sha256=abc"))
        .contains("library.sha256=abc, which is not 64 lower-case hex digits");
    assertThat(invalid("library.size=1314640", "library.size=0"))
        .contains("library.size=0, which is no positive number");
    assertThat(invalid("library.size=1314640", "library.size=1e6"))
        .contains("library.size=1e6, which is no positive number");
    // The name is joined to the extraction directory: no path may escape it.
    assertThat(invalid("library=libiree_runtime.so", "library=../../evil.so"))
        .contains("names the library '../../evil.so', which is no plain file name");
    assertThat(invalid("library=libiree_runtime.so", "library=a\\\\b.so")).contains("a\\b.so");
  }

  @Test
  void aFileLongerThanTheLimitIsRefusedUnread() {
    byte[] huge = new byte[BuildInfo.MAX_BYTES + 1];
    java.util.Arrays.fill(huge, (byte) '#');
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class,
            () -> BuildInfo.read(new ByteArrayInputStream(huge), "jar Y"));
    assertThat(e).hasMessageThat().contains("in jar Y is longer than 65536 bytes");
  }

  @Test
  void aBadEscapeIsNotAPropertiesFile() {
    String bad = SCRIPT_OUTPUT + "x=\\uZZZZ\n";
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> BuildInfo.parse(bad, "jar Z"));
    assertThat(e).hasMessageThat().contains("is not a properties file");
  }

  private static String invalid(String entry, String replacement) {
    assertThat(SCRIPT_OUTPUT).contains(entry);
    String text = SCRIPT_OUTPUT.replace(entry, replacement);
    return assertThrows(IreeLibraryException.class, () -> BuildInfo.parse(text, "jar X"))
        .getMessage();
  }
}
