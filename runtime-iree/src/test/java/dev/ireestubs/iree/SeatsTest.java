package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.IreeInvocationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class SeatsTest {

  @Test
  void noTwoCallsEverHoldTheSameSession() throws InterruptedException {
    int size = 3;
    Seats seats = new Seats("the pool", size, true, -1);
    AtomicIntegerArray holders = new AtomicIntegerArray(size);
    ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 20_000; i++) {
                  int index = seats.take("f");
                  if (index < 0 || index >= size || !holders.compareAndSet(index, 0, 1)) {
                    wrong.add("session " + index + " given twice at once");
                  }
                  holders.set(index, 0);
                  seats.giveBack(index);
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(wrong).isEmpty();
    assertThat(seats.waiting()).isEqualTo(0);
  }

  @Test
  void aThreadCallingAgainGetsTheSessionItHadWhileItIsFree() {
    Seats seats = new Seats("the pool", 4, true, -1);
    int first = seats.take("f");
    seats.giveBack(first);
    for (int i = 0; i < 10; i++) {
      int again = seats.take("f");
      assertThat(again).isEqualTo(first);
      seats.giveBack(again);
    }
  }

  @Test
  void aCallTakesAnotherSessionWhenItsOwnIsBusy() {
    Seats seats = new Seats("the pool", 2, true, -1);
    int mine = seats.take("f");
    int other = seats.take("f");
    assertThat(other).isNotEqualTo(mine);
    seats.giveBack(mine);
    seats.giveBack(other);
  }

  @Test
  void aCallWaitsAtMostMaxWaitAndSaysWhatToDo() {
    Seats seats = new Seats("the pool", 1, true, TimeUnit.MILLISECONDS.toNanos(20));
    int held = seats.take("f");

    IreeInvocationException e = assertThrows(IreeInvocationException.class, () -> seats.take("f"));
    assertThat(e).hasMessageThat().contains("all 1 sessions of the pool stayed busy for 20 ms");
    assertThat(e.statusCode()).isEqualTo(IreeStatusCode.DEADLINE_EXCEEDED.code());
    seats.giveBack(held);
  }

  @Test
  void aSessionGivenBackAsACallQueuesAlwaysReachesIt() throws Exception {
    // The giver reads the queue after freeing the session, the queued call takes the flags after
    // joining the queue: whichever comes first, the call gets the session and never sleeps on.
    Seats seats = new Seats("the pool", 1, true, -1);
    for (int round = 0; round < 2_000; round++) {
      int held = seats.take("f");
      CompletableFuture<Integer> taken = new CompletableFuture<>();
      Thread caller = new Thread(() -> taken.complete(seats.take("f")));
      caller.start();
      for (int spin = 0; spin < round % 200; spin++) {
        Thread.onSpinWait(); // give it back at a different moment of the caller's take each round
      }
      seats.giveBack(held);

      int index = taken.get(30, TimeUnit.SECONDS); // a hang guard only
      assertThat(index).isEqualTo(0);
      seats.giveBack(index);
      caller.join();
    }
    assertThat(seats.waiting()).isEqualTo(0);
  }

  @Test
  void aCallThatFindsEverySessionTakenWaitsAndGetsTheOneGivenBack() throws Exception {
    Seats seats = new Seats("the pool", 2, true, -1);
    int first = seats.take("f");
    int second = seats.take("f");
    CompletableFuture<Integer> taken = new CompletableFuture<>();
    Thread caller = new Thread(() -> taken.complete(seats.take("f")));
    caller.start();
    while (seats.waiting() == 0) {
      Thread.onSpinWait();
    }
    seats.giveBack(second);

    assertThat(taken.get(30, TimeUnit.SECONDS)).isEqualTo(second); // a hang guard only
    caller.join();
    seats.giveBack(first);
    seats.giveBack(second);
  }

  @Test
  void aCloseWakesEveryWaitingCall() throws Exception {
    Seats seats = new Seats("the pool", 1, true, -1);
    int held = seats.take("f");
    CompletableFuture<Throwable> waiting = new CompletableFuture<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                seats.take("f");
                waiting.complete(null);
              } catch (RuntimeException e) {
                waiting.complete(e);
              }
            });
    caller.start();
    while (seats.waiting() == 0) {
      Thread.onSpinWait();
    }
    seats.close();

    Throwable failure = waiting.get(30, TimeUnit.SECONDS); // a hang guard only
    assertThat(failure).isInstanceOf(IllegalStateException.class);
    assertThat(failure).hasMessageThat().isEqualTo("the pool is closed: f cannot be called");
    seats.giveBack(held);
  }

  @Test
  void aCallThatGaveBackItsSessionTakesItAgainOnlyIfNoCallWaitedPastTheGrace() throws Exception {
    Seats seats = new Seats("the pool", 1, true, -1);
    int held = seats.take("f");
    ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
    Thread waiting = caller(seats, "waiting", order);
    waiting.start();
    // It waits past the grace, and has joined the queue again (overdue is counted just before).
    while (seats.overdue() == 0 || seats.waiting() == 0) {
      Thread.onSpinWait();
    }
    seats.giveBack(held);
    int again = seats.take("f"); // at once without the grace: it queues behind the overdue call
    order.add("again");
    seats.giveBack(again);
    waiting.join();

    assertThat(order).containsExactly("waiting", "again").inOrder();
  }

  /** A thread that takes a session, records {@code name} and gives the session back. */
  private static Thread caller(Seats seats, String name, ConcurrentLinkedQueue<String> order) {
    return new Thread(
        () -> {
          int index = seats.take(name);
          order.add(name);
          seats.giveBack(index);
        });
  }

  @Test
  void aSessionThatIsNotAPoolIsAlwaysSeatZero() {
    Seats seats = new Seats("the session", 1, false, -1);
    assertThat(seats.take("f")).isEqualTo(0);
    assertThat(seats.take("f")).isEqualTo(0);
  }
}
