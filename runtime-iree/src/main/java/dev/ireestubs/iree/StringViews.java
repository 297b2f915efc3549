package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.charset.StandardCharsets;

/** IREE's {@code iree_string_view_t}: reading one as a Java string, and making one. */
@SuppressWarnings("restricted") // reinterpret of a view's data pointer
final class StringViews {

  private StringViews() {}

  /** A string view's bytes as UTF-8 (malformed bytes replaced); "" for an empty or null view. */
  static String read(MemorySegment view) {
    MemorySegment data = view.get(ADDRESS, Layouts.STRING_VIEW_DATA);
    long size = view.get(JAVA_LONG, Layouts.STRING_VIEW_SIZE);
    if (size <= 0 || data.address() == 0) {
      return "";
    }
    if (size > Integer.MAX_VALUE - 8) {
      return "<a string of " + size + " bytes>";
    }
    byte[] bytes = data.reinterpret(size).toArray(JAVA_BYTE);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** A string view of {@code s}'s UTF-8 bytes (not NUL-terminated), allocated in {@code arena}. */
  static MemorySegment of(SegmentAllocator arena, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    MemorySegment view = arena.allocate(Layouts.STRING_VIEW);
    MemorySegment data =
        bytes.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, bytes);
    view.set(ADDRESS, Layouts.STRING_VIEW_DATA, data);
    view.set(JAVA_LONG, Layouts.STRING_VIEW_SIZE, bytes.length);
    return view;
  }
}
