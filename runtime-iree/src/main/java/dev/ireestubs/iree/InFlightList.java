package dev.ireestubs.iree;

import java.util.ArrayList;
import java.util.List;

/**
 * The asynchronous calls of a session submitted or deferred and not completed, oldest first: a
 * doubly-linked list through the calls' own {@link InFlight#previous}/{@link InFlight#next} fields,
 * so that adding and removing a call allocates nothing (a {@code LinkedHashSet} entry was 40 bytes
 * a call). Guarded by the session's lock.
 */
final class InFlightList {

  private InFlight<?> first;
  private InFlight<?> last;
  private int size;

  /** Appends {@code call}, which is in no list. */
  void add(InFlight<?> call) {
    call.listed = true;
    call.previous = last;
    call.next = null;
    if (last == null) {
      first = call;
    } else {
      last.next = call;
    }
    last = call;
    size++;
  }

  /** Removes {@code call}; does nothing when it is not listed. */
  void remove(InFlight<?> call) {
    if (!call.listed) {
      return;
    }
    if (call.previous == null) {
      first = call.next;
    } else {
      call.previous.next = call.next;
    }
    if (call.next == null) {
      last = call.previous;
    } else {
      call.next.previous = call.previous;
    }
    call.previous = null;
    call.next = null;
    call.listed = false;
    size--;
  }

  boolean contains(InFlight<?> call) {
    return call.listed;
  }

  boolean isEmpty() {
    return first == null;
  }

  int size() {
    return size;
  }

  /** The calls, oldest first, in a new list (for a close, which removes them as it goes). */
  List<InFlight<?>> toList() {
    List<InFlight<?>> calls = new ArrayList<>(size);
    for (InFlight<?> call = first; call != null; call = call.next) {
      calls.add(call);
    }
    return calls;
  }
}
