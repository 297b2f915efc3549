package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.OpaqueRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@link FencedFuture#submit} releases itself. (Its guarantees over a whole call, through
 * stubs and dynamic functions, are {@code AsyncCallsTest}'s.)
 */
class AsyncSubmissionTest {

  @Test
  void aDecodedValueNobodyTakesIsDiscarded() {
    FloatArray a = FloatArray.of(new float[] {1, 2}, 2);
    OpaqueRef ref = OpaqueRef.of("x.handle", null);
    record Pair(FloatArray array, List<Object> rest) {}
    AsyncSubmission.discard(new Pair(a, List.of(Map.of("k", ref))));
    assertThat(a.isClosed()).isTrue();
    assertThat(ref.isClosed()).isTrue();
  }
}
