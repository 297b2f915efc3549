package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/** The session's list of calls in flight, linked through the calls themselves. */
class InFlightListTest {

  private static InFlight call() {
    return new InFlight(null, null, false);
  }

  @Test
  void keepsTheCallsInTheOrderTheyCameAndForgetsRemovedOnes() {
    InFlightList list = new InFlightList();
    InFlight a = call();
    InFlight b = call();
    InFlight c = call();
    list.add(a);
    list.add(b);
    list.add(c);

    list.remove(b);

    assertThat(list.toList()).containsExactly(a, c).inOrder();
    assertThat(list.size()).isEqualTo(2);
    assertThat(list.contains(b)).isFalse();
    assertThat(list.contains(a)).isTrue();
  }

  @Test
  void removingTheEndsAndRemovingTwiceLeaveAConsistentList() {
    InFlightList list = new InFlightList();
    InFlight a = call();
    InFlight b = call();
    InFlight c = call();
    list.add(a);
    list.add(b);
    list.add(c);

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
