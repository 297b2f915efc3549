package dev.ireestubs.maven;

import static com.google.common.truth.Truth.assertThat;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaleStubsTest {

  @TempDir Path dir;

  private Path model;
  private Path generated;
  private Path classes;

  private void project() throws IOException {
    model = write(dir.resolve("classes/models/adder.vmfb"), "module v1");
    generated = Files.createDirectories(dir.resolve("generated"));
    classes = dir.resolve("classes");
    write(classes.resolve("com/acme/Models.class"), "x");
    write(classes.resolve("com/acme/Models$Adder.class"), "x");
    write(classes.resolve("com/acme/Iree_Models_Adder.class"), "x");
    write(classes.resolve("com/acme/Iree_Models_Adder$Holder.class"), "x");
    write(classes.resolve("com/acme/ModelsTest.class"), "unrelated");
    write(classes.resolve("com/acme/Iree_Models_AdderX.class"), "unrelated");
    write(
        generated.resolve("com/acme/Iree_Models_Adder.iree-inputs"),
        "# comment\nsource com.acme.Models\nstub com.acme.Iree_Models_Adder\ninput "
            + Files.size(model)
            + " "
            + StaleStubs.fingerprint(model)
            + " "
            + model
            + "\n");
  }

  @Test
  void anUnchangedModelIsUpToDate() throws IOException {
    project();
    assertThat(StaleStubs.find(generated)).isEmpty();
  }

  @Test
  void aModelOfTheSameSizeAndTimeButOtherContentIsStale() throws IOException {
    project();
    FileTime time = Files.getLastModifiedTime(model);
    Files.writeString(model, "module v2", UTF_8);
    Files.setLastModifiedTime(model, time);

    List<StaleStubs.Stale> stale = StaleStubs.find(generated);

    assertThat(stale).hasSize(1);
    assertThat(stale.get(0).reason())
        .isEqualTo(model + " changed since Iree_Models_Adder was generated");
  }

  @Test
  void aTouchedButUnchangedModelIsUpToDate() throws IOException {
    project();
    Files.setLastModifiedTime(
        model, FileTime.fromMillis(Files.getLastModifiedTime(model).toMillis() + 2000));
    assertThat(StaleStubs.find(generated)).isEmpty();
  }

  @Test
  void theFingerprintIsTheContentsSha256AsTheProcessorComputesIt() throws IOException {
    // The same value the processor's own test expects for this content.
    assertThat(StaleStubs.fingerprint(write(dir.resolve("abc"), "abc")))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  void aLongerModelIsStaleAndInvalidationRemovesExactlyItsClasses() throws IOException {
    project();
    Files.writeString(model, "module v2, longer", UTF_8);

    List<StaleStubs.Stale> stale = StaleStubs.find(generated);
    List<Path> removed = StaleStubs.invalidate(stale.get(0), classes);

    assertThat(removed)
        .containsExactly(
            classes.resolve("com/acme/Models.class"),
            classes.resolve("com/acme/Models$Adder.class"),
            classes.resolve("com/acme/Iree_Models_Adder.class"),
            classes.resolve("com/acme/Iree_Models_Adder$Holder.class"),
            generated.resolve("com/acme/Iree_Models_Adder.iree-inputs"));
    assertThat(Files.exists(classes.resolve("com/acme/ModelsTest.class"))).isTrue();
    assertThat(Files.exists(classes.resolve("com/acme/Iree_Models_AdderX.class"))).isTrue();
    assertThat(StaleStubs.find(generated)).isEmpty();
  }

  @Test
  void aDeletedModelIsStale() throws IOException {
    project();
    Files.delete(model);
    assertThat(StaleStubs.find(generated).get(0).reason())
        .contains("is gone since Iree_Models_Adder");
  }

  @Test
  void aMalformedRecordIsStaleNotAnError() throws IOException {
    Path g = Files.createDirectories(dir.resolve("g"));
    write(g.resolve("a/Iree_A.iree-inputs"), "source ../../etc\nstub x\n");
    write(g.resolve("a/Iree_B.iree-inputs"), "source a.B\nstub a.Iree_B\ninput 1 1 /x\n");
    write(g.resolve("a/Iree_C.iree-inputs"), "what is this\n");

    List<StaleStubs.Stale> stale = StaleStubs.find(g);

    assertThat(stale).hasSize(3);
    for (StaleStubs.Stale s : stale) {
      assertThat(s.reason()).endsWith("is not a record iree-stubs can read");
      assertThat(StaleStubs.invalidate(s, dir.resolve("classes")))
          .containsExactly(s.record().file());
    }
  }

  @Test
  void noGeneratedFolderMeansNothingToDo() throws IOException {
    assertThat(StaleStubs.find(dir.resolve("absent"))).isEmpty();
  }

  private static Path write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, text, UTF_8);
  }
}
