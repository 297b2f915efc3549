package dev.ireestubs.abi;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The lexical layer of the deprecated V0 signatures ({@code f} and {@code sip}): a flat sequence of
 * length-prefixed components with no separators, read by {@link Reader} and written by {@link
 * Builder}.
 *
 * <ul>
 *   <li>An <b>integer component</b> is a tag ({@code _} or {@code a}..{@code z}), an optional
 *       {@code -} and decimal digits: {@code _5a1z10x-5991} is four of them. The value must fit a
 *       Java {@code int}.
 *   <li>A <b>span component</b> is a tag ({@code A}..{@code Z}), a decimal length, {@code !} and
 *       the contents. The length counts the contents <em>plus one for the {@code !}</em>, so {@code
 *       A7!foobar} holds {@code foobar} and {@code Z1!} is empty. The {@code !} is always written,
 *       which lets contents start with digits or {@code !} ({@code A6!!2345}). Contents may be a
 *       nested encoded sequence ({@code _5X3!_6}); {@link Reader#open} reads one.
 * </ul>
 *
 * <p>IREE's C++ code counts lengths in bytes of the UTF-8 text; so does this class, and every
 * offset in an error message is a byte offset into the UTF-8 encoding of the whole text (the same
 * as the character offset for ASCII text, which is all IREE's compiler wrote apart from dict keys).
 *
 * <p>The input is untrusted: lengths and integers out of range, spans running past the end and
 * spans nested more than {@link #MAX_DEPTH} deep are {@link AbiParseException}s; nothing is
 * allocated from a declared length.
 */
final class V0Components {

  /**
   * The deepest span nesting a {@link Reader} accepts: a reader over the whole text is at depth 0
   * and each {@link Reader#open} adds one.
   */
  public static final int MAX_DEPTH = ParseLimits.MAX_DEPTH;

  /** At most this many characters of a number or of contents are quoted in an error message. */
  private static final int QUOTE_LIMIT = 24;

  private V0Components() {}

  /** True for the tags of integer components: {@code _} and {@code a}..{@code z}. */
  public static boolean isIntegerTag(char tag) {
    return tag == '_' || (tag >= 'a' && tag <= 'z');
  }

  /** True for the tags of span components: {@code A}..{@code Z}. */
  public static boolean isSpanTag(char tag) {
    return tag >= 'A' && tag <= 'Z';
  }

  /** One component of an encoded sequence. */
  public sealed interface Component permits IntegerComponent, SpanComponent {
    /** The tag character. */
    char tag();

    /** The byte offset of the tag in the whole text. */
    int offset();
  }

  /**
   * An integer component such as {@code x-5991}.
   *
   * @param tag {@code _} or {@code a}..{@code z}
   * @param value the value
   * @param offset the byte offset of the tag in the whole text
   */
  public record IntegerComponent(char tag, int value, int offset) implements Component {
    public IntegerComponent {
      if (!isIntegerTag(tag)) {
        throw new IllegalArgumentException(
            "an integer component's tag must be '_' or a..z, got " + describeChar(tag));
      }
    }

    @Override
    public String toString() {
      return String.valueOf(tag) + value;
    }
  }

  /**
   * A span component such as {@code A7!foobar}. Compares by value, like a record of its five
   * accessors.
   *
   * <p>A span read by a {@link Reader} decodes its contents only when {@link #contents()} is first
   * called: the span of a nested sequence is read again by {@link Reader#open}, so decoding every
   * span's contents would copy the text once per level of nesting.
   */
  public static final class SpanComponent implements Component {
    private final char tag;
    private final int offset;
    private final int contentOffset;
    private final int contentLength;

    /** The whole text, for contents not yet decoded; null once {@link #contents} is set. */
    private byte[] bytes;

    private String contents;

    /**
     * @param tag {@code A}..{@code Z}
     * @param contents the contents after the {@code !}, decoded from UTF-8
     * @param offset the byte offset of the tag in the whole text
     * @param contentOffset the byte offset of the first content byte (just after the {@code !})
     * @param contentLength the number of content bytes: the declared length minus one
     * @throws IllegalArgumentException for a tag outside {@code A}..{@code Z} or bounds that do not
     *     fit together
     */
    public SpanComponent(
        char tag, String contents, int offset, int contentOffset, int contentLength) {
      this(tag, offset, contentOffset, contentLength);
      this.contents = Objects.requireNonNull(contents, "contents");
    }

    /** A span over {@code bytes}, whose contents are decoded when asked for. */
    private SpanComponent(
        byte[] bytes, char tag, int offset, int contentOffset, int contentLength) {
      this(tag, offset, contentOffset, contentLength);
      this.bytes = bytes;
    }

    private SpanComponent(char tag, int offset, int contentOffset, int contentLength) {
      if (!isSpanTag(tag)) {
        throw new IllegalArgumentException(
            "a span component's tag must be A..Z, got " + describeChar(tag));
      }
      if (offset < 0 || contentOffset <= offset || contentLength < 0) {
        throw new IllegalArgumentException(
            "bad span bounds: offset "
                + offset
                + ", contents at "
                + contentOffset
                + " length "
                + contentLength);
      }
      this.tag = tag;
      this.offset = offset;
      this.contentOffset = contentOffset;
      this.contentLength = contentLength;
    }

    /** {@code A}..{@code Z}. */
    @Override
    public char tag() {
      return tag;
    }

    /** The contents after the {@code !}, decoded from UTF-8. */
    public String contents() {
      if (contents == null) {
        contents = new String(bytes, contentOffset, contentLength, StandardCharsets.UTF_8);
        bytes = null;
      }
      return contents;
    }

    /** The byte offset of the tag in the whole text. */
    @Override
    public int offset() {
      return offset;
    }

    /** The byte offset of the first content byte (just after the {@code !}). */
    public int contentOffset() {
      return contentOffset;
    }

    /** The number of content bytes: the declared length minus one. */
    public int contentLength() {
      return contentLength;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof SpanComponent that)) {
        return false;
      }

      return tag == that.tag
          && offset == that.offset
          && contentOffset == that.contentOffset
          && contentLength == that.contentLength
          && contents().equals(that.contents());
    }

    @Override
    public int hashCode() {
      return Objects.hash(tag, contents(), offset, contentOffset, contentLength);
    }

    @Override
    public String toString() {
      return String.valueOf(tag) + (contentLength + 1) + "!" + contents();
    }
  }

  // ---------------------------------------------------------------- reading

  /**
   * Reads the components of one encoded sequence, left to right; {@link #open} reads the contents
   * of a span as a nested sequence.
   *
   * <p>Every malformed component is an {@link AbiParseException} naming the byte offset, what was
   * expected and what was found. As in IREE's parser, an error is final: once {@link #next} has
   * failed, every further call fails the same way. At the end, {@link #atEnd} stays true.
   *
   * <p>Not thread-safe; one reader per parse.
   */
  public static final class Reader {
    private final byte[] bytes;
    private final int start;
    private final int end;
    private final int depth;
    private final ReflectionFormat format;
    private int pos;
    private AbiParseException failure;

    private Reader(byte[] bytes, int start, int end, int depth, ReflectionFormat format) {
      this.bytes = bytes;
      this.start = start;
      this.end = end;
      this.depth = depth;
      this.format = format;
      this.pos = start;
    }

    /**
     * A reader over the whole of {@code text}.
     *
     * @param text the encoded text
     * @param format the format errors are reported for ({@link ReflectionFormat#V0_RAW} or {@link
     *     ReflectionFormat#V0_SIP})
     * @throws AbiParseException when the text is longer than {@link ParseLimits#MAX_TEXT_LENGTH}
     */
    public static Reader of(String text, ReflectionFormat format) {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(format, "format");
      ParseLimits.checkTextLength(format, text);
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      return new Reader(bytes, 0, bytes.length, 0, format);
    }

    /** The nesting depth: 0 for a reader over the whole text, one more per {@link #open}. */
    public int depth() {
      return depth;
    }

    /** The byte offset of the next component (or of the end of this reader's range). */
    public int offset() {
      return pos;
    }

    /** The byte offset where this reader's range ends. */
    public int endOffset() {
      return end;
    }

    /** True when every component of this sequence has been read. */
    public boolean atEnd() {
      return failure == null && pos >= end;
    }

    /**
     * Reads the next component.
     *
     * @throws AbiParseException at the end of the sequence, for a character that is not a tag, a
     *     tag without digits, an integer out of {@code int} range, a span length that is negative,
     *     zero (it must count the {@code !}) or runs past the end, or a span without its {@code !};
     *     and again on every call after one of these
     */
    public Component next() {
      if (failure != null) {
        throw new AbiParseException(format, failure.position(), failure.detail(), failure);
      }
      try {
        return read();
      } catch (AbiParseException e) {
        failure = e;
        throw e;
      }
    }

    /**
     * Skips components until one with {@code tag}, and returns it (IREE's {@code SeekTag}); empty,
     * with the reader at its end, when there is none. Skipped components are still checked.
     *
     * @throws AbiParseException as {@link #next}
     */
    public Optional<Component> seekTag(char tag) {
      while (!atEnd()) {
        Component c = next();
        if (c.tag() == tag) {
          return Optional.of(c);
        }
      }
      return Optional.empty();
    }

    /**
     * A reader over the contents of {@code span}, a span this reader (or a reader over the same
     * text) returned, for contents that are a nested encoded sequence.
     *
     * @throws AbiParseException when that would nest spans more than {@link #MAX_DEPTH} deep
     * @throws IllegalArgumentException when the span's contents lie outside this reader's range
     */
    public Reader open(SpanComponent span) {
      int contentEnd = span.contentOffset() + span.contentLength();
      if (span.contentOffset() < start || contentEnd > end || contentEnd < span.contentOffset()) {
        throw new IllegalArgumentException(
            "span at offset "
                + span.offset()
                + " does not lie inside this reader's range "
                + start
                + ".."
                + end);
      }
      if (depth + 1 > MAX_DEPTH) {
        throw error(
            span.offset(),
            "expected spans nested at most ParseLimits.MAX_DEPTH = "
                + MAX_DEPTH
                + " deep, found span '"
                + span.tag()
                + "' at depth "
                + (depth + 1));
      }
      return new Reader(bytes, span.contentOffset(), contentEnd, depth + 1, format);
    }

    /** An error of this reader's format at byte offset {@code offset}. */
    public AbiParseException error(int offset, String detail) {
      return new AbiParseException(format, "offset " + offset, detail);
    }

    /**
     * A short description of what stands at byte offset {@code offset} for an error message: {@code
     * 'x'}, {@code control character U+0001}, {@code 'é' (U+00E9)} or {@code the end of the text}.
     */
    public String describeAt(int offset) {
      if (offset >= end) {
        return end == bytes.length ? "the end of the text" : "the end of the enclosing span";
      }
      int b = bytes[offset] & 0xFF;
      if (b < 0x80) {
        return describeChar((char) b);
      }
      // Decode the whole character for the message; lone or cut bytes are shown as bytes.
      int n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
      if (n > 1 && offset + n <= end) {
        String s = new String(bytes, offset, n, StandardCharsets.UTF_8);
        if (s.codePointCount(0, s.length()) == 1 && s.codePointAt(0) != 0xFFFD) {
          return "'" + s + "' (U+" + String.format("%04X", s.codePointAt(0)) + ")";
        }
      }
      return String.format("byte 0x%02X (not a whole UTF-8 character)", b);
    }

    private Component read() {
      if (pos >= end) {
        throw error(pos, "expected a component (a tag _, a..z or A..Z), found " + describeAt(pos));
      }
      int tagOffset = pos;
      char tag = (char) (bytes[pos] & 0xFF);
      boolean integer = bytes[pos] >= 0 && isIntegerTag(tag);
      boolean span = bytes[pos] >= 0 && isSpanTag(tag);
      if (!integer && !span) {
        throw error(
            tagOffset,
            "expected a component tag (_ or a..z for an integer, A..Z for a span), found "
                + describeAt(tagOffset));
      }
      pos++;
      int value = readInt(tag, span);
      if (integer) {
        return new IntegerComponent(tag, value, tagOffset);
      }
      if (value < 0) {
        throw error(
            tagOffset + 1, "expected a span length >= 1 after '" + tag + "', found " + value);
      }
      if (value == 0) {
        throw error(
            tagOffset + 1,
            "expected a span length >= 1 after '" + tag + "' (the length counts the '!'), found 0");
      }
      if (pos >= end || bytes[pos] != '!') {
        throw error(
            pos, "expected '!' after the length of span '" + tag + "', found " + describeAt(pos));
      }
      int remaining = end - pos;
      if (value > remaining) {
        throw error(
            tagOffset,
            "span '"
                + tag
                + "' declares length "
                + value
                + " (the '!' and "
                + plural(value - 1, "content byte")
                + ") but only "
                + (remaining == 1 ? "1 byte remains" : remaining + " bytes remain")
                + " before "
                + (end == bytes.length ? "the end of the text" : "the end of the enclosing span"));
      }
      int contentOffset = pos + 1;
      int contentLength = value - 1;
      int contentEnd = contentOffset + contentLength;
      if (contentEnd < end && (bytes[contentEnd] & 0xC0) == 0x80) {
        throw error(
            contentEnd,
            "span '"
                + tag
                + "' ends inside a multi-byte UTF-8 character (its length counts bytes)");
      }
      pos = contentEnd;
      return new SpanComponent(bytes, tag, tagOffset, contentOffset, contentLength);
    }

    /** Reads an optional '-' and at least one digit into an int, with range checks. */
    private int readInt(char tag, boolean span) {
      String what = span ? "a length" : "an integer";
      boolean negative = false;
      if (pos < end && bytes[pos] == '-') {
        negative = true;
        pos++;
      }
      int digitsStart = pos;
      long magnitude = 0;
      boolean overflow = false;
      while (pos < end && bytes[pos] >= '0' && bytes[pos] <= '9') {
        if (!overflow) {
          magnitude = magnitude * 10 + (bytes[pos] - '0');
          if (magnitude > (long) Integer.MAX_VALUE + 1) {
            overflow = true;
          }
        }
        pos++;
      }
      if (pos == digitsStart) {
        throw error(
            pos,
            "expected "
                + (negative ? "digits after '-'" : "digits (" + what + ")")
                + " after tag '"
                + tag
                + "', found "
                + describeAt(pos));
      }
      long value = negative ? -magnitude : magnitude;
      if (overflow || value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
        throw error(
            digitsStart - (negative ? 1 : 0),
            "expected "
                + what
                + " within "
                + Integer.MIN_VALUE
                + ".."
                + Integer.MAX_VALUE
                + " after tag '"
                + tag
                + "', found "
                + (negative ? "-" : "")
                + quoteDigits(digitsStart, pos));
      }
      return (int) value;
    }

    private String quoteDigits(int from, int to) {
      int n = to - from;
      if (n <= QUOTE_LIMIT) {
        return new String(bytes, from, n, StandardCharsets.US_ASCII);
      }
      return new String(bytes, from, QUOTE_LIMIT, StandardCharsets.US_ASCII)
          + "... ("
          + n
          + " digits)";
    }
  }

  // ---------------------------------------------------------------- writing

  /**
   * Writes an encoded sequence, component by component (IREE's {@code SignatureBuilder}).
   *
   * <p>Not thread-safe. {@link #toString} gives the text written so far.
   */
  public static final class Builder {
    private final StringBuilder out = new StringBuilder();

    /** A builder with nothing written. */
    public Builder() {}

    /** Writes an integer component with the default tag {@code _}. */
    public Builder integer(int value) {
      return integer('_', value);
    }

    /**
     * Writes an integer component, e.g. {@code integer('x', -5991)} writes {@code x-5991}.
     *
     * @throws IllegalArgumentException when {@code tag} is not {@code _} or {@code a}..{@code z}
     */
    public Builder integer(char tag, int value) {
      if (!isIntegerTag(tag)) {
        throw new IllegalArgumentException(
            "an integer component's tag must be '_' or a..z, got " + describeChar(tag));
      }
      out.append(tag).append(value);
      return this;
    }

    /**
     * Writes a span component holding {@code contents}, e.g. {@code span('A', "foobar")} writes
     * {@code A7!foobar}; the length counts the UTF-8 bytes of the contents plus the {@code !}.
     *
     * @throws IllegalArgumentException when {@code tag} is not {@code A}..{@code Z}, or the
     *     contents are too long for an {@code int} length
     */
    public Builder span(char tag, String contents) {
      if (!isSpanTag(tag)) {
        throw new IllegalArgumentException(
            "a span component's tag must be A..Z, got " + describeChar(tag));
      }
      long length = utf8Length(contents) + 1L;
      if (length > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "span contents of " + (length - 1) + " bytes are too long for a V0 length");
      }
      out.append(tag).append(length).append('!').append(contents);
      return this;
    }

    /**
     * Writes a span component holding what {@code nested} has written, e.g. a builder holding
     * {@code _6} as span {@code X} writes {@code X3!_6}.
     *
     * @throws IllegalArgumentException as {@link #span(char, String)}
     */
    public Builder span(char tag, Builder nested) {
      return span(tag, nested.toString());
    }

    /** True when nothing has been written. */
    public boolean isEmpty() {
      return out.length() == 0;
    }

    /** The text written so far. */
    @Override
    public String toString() {
      return out.toString();
    }
  }

  /** The number of bytes of the UTF-8 encoding of {@code s}, without encoding it. */
  static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        n += 1; // an unpaired surrogate encodes as '?'
      } else {
        n += 3;
      }
    }
    return n;
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** {@code 'x'} for a printable ASCII character, else {@code control character U+0001} etc. */
  static String describeChar(char c) {
    if (c >= 0x20 && c < 0x7F) {
      return "'" + c + "'";
    }
    if (c < 0x20 || c == 0x7F) {
      return String.format("control character U+%04X", (int) c);
    }
    return String.format("'%c' (U+%04X)", c, (int) c);
  }
}
