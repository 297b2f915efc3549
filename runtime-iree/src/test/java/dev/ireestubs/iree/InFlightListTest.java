package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/** The session's list of calls in flight, linked through the calls themselves. */
class InFlightListTest {

  private static InFlight<?> call() {
    return InFlight.direct(null, new NativeFence(null, 0, 0));
  }

  private static InFlightList listOf(InFlight<?>... calls) {
    InFlightList list = new InFlightList();
    for (InFlight<?> call : calls) {
      list.add(call);
    }
    return list;
  }

  @Test
  void keepsTheCallsInTheOrderTheyCameAndForgetsRemovedOnes() {
    InFlight<?> a = call();
    InFlight<?> b = call();
    InFlight<?> c = call();
    InFlightList list = listOf(a, b, c);

    list.remove(b);

    assertThat(list.toList()).containsExactly(a, c).inOrder();
    assertThat(list.size()).isEqualTo(2);
    assertThat(list.contains(b)).isFalse();
    assertThat(list.contains(a)).isTrue();
  }

  @Test
  void removingTheEndsAndRemovingTwiceLeaveAConsistentList() {
    InFlight<?> a = call();
    InFlight<?> b = call();
    InFlight<?> c = call();
    InFlightList list = listOf(a, b, c);

    list.remove(a);
    list.remove(c);
    list.remove(c); // not listed any more: nothing happens

    assertThat(list.toList()).containsExactly(b);
    list.remove(b);
    assertThat(list.isEmpty()).isTrue();
    assertThat(list.size()).isEqualTo(0);
    list.add(c); // a removed call can come back (a deferred call is listed once; this is a check)
    assertThat(list.toList()).containsExactly(c);
  }
}
