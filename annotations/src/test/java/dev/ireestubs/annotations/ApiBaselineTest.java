package dev.ireestubs.annotations;

import dev.ireestubs.testing.PublicApi;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The public API of iree-stubs-annotations is the committed baseline,
 * api/iree-stubs-annotations.api: a change to it shows in that file's diff ({@code
 * -Dapi.update=true} rewrites it). See {@link PublicApi}.
 */
class ApiBaselineTest {

  @Test
  void thePublicApiIsTheBaseline() throws IOException {
    PublicApi.assertMatchesBaseline(
        Path.of("target/classes"), Path.of("api/iree-stubs-annotations.api"), pkg -> true);
  }
}
