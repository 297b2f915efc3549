package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.iree.models.Iree_Scale;
import dev.ireestubs.iree.models.Iree_Scale2;
import dev.ireestubs.iree.models.Scale;
import dev.ireestubs.iree.models.Scale2;
import dev.ireestubs.ndarray.FloatArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Modules that load their weights from parameter archives ({@code .irpa}), on IREE's runtime,
 * through generated stubs: the results {@code iree-run-module --parameters=SCOPE=FILE} gives
 * ({@code ../shared/iree-reflection/README.md}, "Modules with external parameters"), and each kind
 * of bad input as an exception. Skipped without a runtime library or the shared folder.
 */
class ParametersIntegrationTest {

  private static final float[] INPUT = {1, 2, 3, 4};

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  @TempDir Path dir;

  private static Path archive(String name) {
    return Corpus.require("params/" + name);
  }

  private static FloatArray input() {
    return FloatArray.of(INPUT.clone(), 4);
  }

  @Test
  void scaleWithItsWeightsDoubles() throws IOException {
    Parameters weights = Parameters.builder().scope("model", archive("scale_weights.irpa")).build();
    IreeBackend.Options options =
        IreeBackend.Options.defaults()
            .withLibrary(IreeLibrary.locate().orElseThrow())
            .withParameters(weights);
    try (IreeSession session = IreeBackend.open(Corpus.require(Scale.FILE), options)) {
      assertThat(session.parameterScopes()).containsExactly("model");
      assertThat(new Iree_Scale(session).scale(input()).toArray())
          .isEqualTo(new float[] {2, 4, 6, 8});
    }
  }

  @Test
  void scaleWithZeroWeightsGivesZeros() throws IOException {
    Parameters zero =
        Parameters.builder().scope("model", archive("scale_weights_zero.irpa")).build();
    try (IreeSession session = IREE.runtime().newSession().load(Corpus.require(Scale.FILE), zero)) {
      assertThat(new Iree_Scale(session).scale(input()).toArray())
          .isEqualTo(new float[] {0, 0, 0, 0});
    }
  }

  @Test
  void scale2TakesTwoScopes() throws IOException {
    Parameters both =
        Parameters.builder()
            .scope("model", archive("scale_weights.irpa"))
            .scope("bias", archive("scale2_bias.irpa"))
            .build();
    try (IreeSession session =
        IREE.runtime().newSession().load(Corpus.require(Scale2.FILE), both)) {
      Scale2 stub = new Iree_Scale2(session);
      assertThat(stub.scale2(input()).toArray()).isEqualTo(new float[] {12, 14, 16, 18});
      // A module without parameters loads beside it.
      session.load(Corpus.require("vmfb/2026-06_eerie_mul_vmvx_bc17.vmfb"));
      assertThat(session.functionNames()).contains("arithmetic.simple_mul");
      assertThat(stub.scale2(input()).toArray()).isEqualTo(new float[] {12, 14, 16, 18});
    }
  }

  @Test
  void severalFilesInOneScope() throws IOException {
    Parameters split =
        Parameters.builder()
            .scope("model", archive("scale_weights.irpa"))
            .scope("bias", archive("scale2_bias.irpa"))
            .scope("model", archive("scale2_bias.irpa"))
            .build();
    assertThat(split.scopes().get("model")).hasSize(2);
    try (IreeSession session =
        IREE.runtime().newSession().load(Corpus.require(Scale2.FILE), split)) {
      assertThat(new Iree_Scale2(session).scale2(input()).toArray())
          .isEqualTo(new float[] {12, 14, 16, 18});
    }
  }

  @Test
  void withoutArchivesTheLoadNamesTheScopes() throws IOException {
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeInvocationException e =
          assertThrows(
              IreeInvocationException.class, () -> session.load(Corpus.require(Scale2.FILE)));
      assertThat(e.statusCode()).isEqualTo(IreeStatusCode.NOT_FOUND.code());
      assertThat(e).hasMessageThat().contains("in scopes 'bias', 'model'");
      assertThat(e).hasMessageThat().contains("this session binds no parameter archives");
      assertThat(e).hasMessageThat().contains("Parameters.builder().scope(SCOPE, file)");
      assertThat(e).hasMessageThat().contains("The module imports IREE's io_parameters module");
      assertThat(e).hasMessageThat().contains("external parameter archives (.irpa");
    }
  }

  @Test
  void aMissingScopeIsNamed() throws IOException {
    Parameters onlyModel =
        Parameters.builder().scope("model", archive("scale_weights.irpa")).build();
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeInvocationException e =
          assertThrows(
              IreeInvocationException.class,
              () -> session.load(Corpus.require(Scale2.FILE), onlyModel));
      assertThat(e).hasMessageThat().contains("this session binds 'model' but not 'bias'");
    }
  }

  @Test
  void aWrongScopeNameIsNamed() throws IOException {
    Parameters misspelt =
        Parameters.builder().scope("Model", archive("scale_weights.irpa")).build();
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeInvocationException e =
          assertThrows(
              IreeInvocationException.class,
              () -> session.load(Corpus.require(Scale.FILE), misspelt));
      assertThat(e).hasMessageThat().contains("in scope 'model'");
      assertThat(e).hasMessageThat().contains("this session binds 'Model' but not 'model'");
    }
  }

  @Test
  void aMissingArchiveIsNamedWithItsScope() throws IOException {
    Path absent = dir.resolve("absent.irpa");
    try (IreeSession session = IREE.runtime().newSession()) {
      NoSuchFileException e =
          assertThrows(
              NoSuchFileException.class,
              () ->
                  session.load(
                      Corpus.require(Scale.FILE),
                      Parameters.builder().scope("model", absent).build()));
      assertThat(e).hasMessageThat().contains(absent.toString());
      assertThat(e).hasMessageThat().contains("parameter scope 'model'");
      assertThat(session.parameterScopes()).isEmpty();
    }
  }

  @Test
  void truncatedArchivesAreRefusedNeverCrash() throws IOException {
    Path whole = archive("scale_weights.irpa");
    byte[] bytes = Files.readAllBytes(whole);
    List<String> outcomes = new ArrayList<>();
    for (int length : new int[] {0, 4, 16, 32, 64, 100, 128, 200, 256, 512, bytes.length - 1}) {
      if (length >= bytes.length) {
        continue;
      }
      Path cut = dir.resolve("cut_" + length + ".irpa");
      Files.write(cut, Arrays.copyOf(bytes, length));
      Parameters p = Parameters.builder().scope("model", cut).build();
      try (IreeSession session = IREE.runtime().newSession()) {
        try {
          session.load(Corpus.require(Scale.FILE), p);
          // IREE read what it needed: the truncation cut only padding after the data.
          float[] y = new Iree_Scale(session).scale(input()).toArray();
          assertThat(y).isEqualTo(new float[] {2, 4, 6, 8});
          outcomes.add(length + ": loaded");
        } catch (IreeInvocationException e) {
          assertThat(e).hasMessageThat().isNotEmpty();
          if (e.getMessage().contains("reading the archive")) {
            assertThat(e).hasMessageThat().contains("parameter scope 'model'");
            assertThat(e).hasMessageThat().contains(cut.toString());
          }
          outcomes.add(length + ": " + IreeStatusCode.describe(e.statusCode()));
        }
      }
    }
    System.out.println("truncated scale_weights.irpa (" + bytes.length + " bytes): " + outcomes);
    assertThat(outcomes.get(0)).doesNotContain("loaded");
  }

  @Test
  void anArchiveLackingAKeyNamesTheKey() throws IOException {
    Parameters noOffset =
        Parameters.builder()
            .scope("model", archive("scale_weights.irpa"))
            .scope("bias", archive("scale_weights_zero.irpa"))
            .build();
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeInvocationException e =
          assertThrows(
              IreeInvocationException.class,
              () -> session.load(Corpus.require(Scale2.FILE), noOffset));
      assertThat(e.statusCode()).isEqualTo(IreeStatusCode.NOT_FOUND.code());
      assertThat(e).hasMessageThat().contains("no parameter found in index with key 'offset'");
      assertThat(e).hasMessageThat().contains("this session binds");
    }
  }

  @Test
  void aSessionBindsParametersOnce() throws IOException {
    Parameters weights = Parameters.builder().scope("model", archive("scale_weights.irpa")).build();
    try (IreeSession session = IREE.runtime().newSession().bindParameters(weights)) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> session.bindParameters(weights));
      assertThat(e).hasMessageThat().contains("already binds parameter scopes 'model'");
      session.load(Corpus.require(Scale.FILE));
      assertThat(new Iree_Scale(session).scale(input()).toArray())
          .isEqualTo(new float[] {2, 4, 6, 8});
    }
    IreeSession closed = IREE.runtime().newSession();
    closed.close();
    assertThrows(IllegalStateException.class, () -> closed.bindParameters(weights));
    assertThrows(IllegalArgumentException.class, () -> Parameters.builder().scope("model"));
  }

  @Test
  void parametersOnAModuleWithoutThemAreHarmless() throws IOException {
    Parameters weights = Parameters.builder().scope("model", archive("scale_weights.irpa")).build();
    try (IreeSession session =
        IREE.runtime().newSession().load(Corpus.require(Adder.FILE), weights)) {
      assertThat(new Iree_Adder(session).add(input(), FloatArray.of(INPUT.clone(), 4)).toArray())
          .isEqualTo(new float[] {2, 4, 6, 8});
    }
  }

  @Test
  void sessionsWithParametersOpenAndCloseRepeatedly() throws IOException {
    Parameters both =
        Parameters.builder()
            .scope("model", archive("scale_weights.irpa"))
            .scope("bias", archive("scale2_bias.irpa"))
            .build();
    for (int i = 0; i < 50; i++) {
      IreeSession session = IREE.runtime().newSession().load(Corpus.require(Scale2.FILE), both);
      Scale2 stub = new Iree_Scale2(session);
      assertThat(stub.scale2(input()).toArray()).isEqualTo(new float[] {12, 14, 16, 18});
      session.close();
      session.close(); // a second close releases nothing twice
      assertThrows(IllegalStateException.class, () -> stub.scale2(input()));
    }
  }
}
