package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.V0Components.Builder;
import dev.ireestubs.abi.V0Components.Component;
import dev.ireestubs.abi.V0Components.IntegerComponent;
import dev.ireestubs.abi.V0Components.Reader;
import dev.ireestubs.abi.V0Components.SpanComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lexical layer, with the builder and parser vectors of reference section 4.4. */
class V0ComponentsTest {

  private static List<Component> readAll(String text) {
    Reader r = Reader.of(text, ReflectionFormat.V0_RAW);
    List<Component> out = new ArrayList<>();
    while (!r.atEnd()) {
      out.add(r.next());
    }
    return out;
  }

  private static AbiParseException fails(String text) {
    return assertThrows(AbiParseException.class, () -> readAll(text));
  }

  // ---------------------------------------------------------------- 4.4 builder vectors

  @Test
  void integers() {
    String encoded =
        new Builder().integer(5).integer('a', 1).integer('z', 10).integer('x', -5991).toString();
    assertThat(encoded).isEqualTo("_5a1z10x-5991");
    assertThat(readAll(encoded))
        .containsExactly(
            new IntegerComponent('_', 5, 0),
            new IntegerComponent('a', 1, 2),
            new IntegerComponent('z', 10, 4),
            new IntegerComponent('x', -5991, 7))
        .inOrder();
  }

  @Test
  void spans() {
    String encoded = new Builder().span('A', "foobar").span('Z', "FOOBAR_23_FOOBAR").toString();
    assertThat(encoded).isEqualTo("A7!foobarZ17!FOOBAR_23_FOOBAR");
    List<Component> read = readAll(encoded);
    assertThat(read)
        .containsExactly(
            new SpanComponent('A', "foobar", 0, 3, 6),
            new SpanComponent('Z', "FOOBAR_23_FOOBAR", 9, 13, 16))
        .inOrder();
    // IREE's parser reports the content length as the span's integer value: [6, 16].
    assertThat(((SpanComponent) read.get(0)).contentLength()).isEqualTo(6);
    assertThat(((SpanComponent) read.get(1)).contentLength()).isEqualTo(16);
  }

  @Test
  void spanContentsMayStartWithDigitsOrBang() {
    assertThat(new Builder().span('A', "12345").span('Z', "-23").toString())
        .isEqualTo("A6!12345Z4!-23");
    assertThat(new Builder().span('A', "!2345").span('Z', "-23").toString())
        .isEqualTo("A6!!2345Z4!-23");
    assertThat(readAll("A6!12345Z4!-23"))
        .containsExactly(
            new SpanComponent('A', "12345", 0, 3, 5), new SpanComponent('Z', "-23", 8, 11, 3))
        .inOrder();
    assertThat(readAll("A6!!2345Z4!-23").get(0))
        .isEqualTo(new SpanComponent('A', "!2345", 0, 3, 5));
  }

  @Test
  void nestedSpan() {
    String encoded = new Builder().integer(5).span('X', new Builder().integer(6)).toString();
    assertThat(encoded).isEqualTo("_5X3!_6");
    Reader r = Reader.of(encoded, ReflectionFormat.V0_RAW);
    assertThat(r.next()).isEqualTo(new IntegerComponent('_', 5, 0));
    SpanComponent x = (SpanComponent) r.next();
    assertThat(r.atEnd()).isTrue();
    Reader inner = r.open(x);
    assertThat(inner.depth()).isEqualTo(1);
    // Offsets stay offsets into the whole text.
    assertThat(inner.next()).isEqualTo(new IntegerComponent('_', 6, 5));
    assertThat(inner.atEnd()).isTrue();
  }

  // ---------------------------------------------------------------- 4.4 parser vectors

  @Test
  void emptyTextIsAtTheEndAndStaysThere() {
    Reader r = Reader.of("", ReflectionFormat.V0_RAW);
    assertThat(r.atEnd()).isTrue();
    assertThat(r.atEnd()).isTrue();
    AbiParseException e = assertThrows(AbiParseException.class, r::next);
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "V0 raw signature (f) at offset 0: expected a component (a tag _, a..z or A..Z), found"
                + " the end of the text");
  }

  @Test
  void controlCharacterTagIsAnError() {
    AbiParseException e = fails("\u00011 ");
    assertThat(e.position()).isEqualTo("offset 0");
    assertThat(e.detail())
        .isEqualTo(
            "expected a component tag (_ or a..z for an integer, A..Z for a span), found control"
                + " character U+0001");
  }

  @Test
  void spanRunningPastTheEndIsAnError() {
    AbiParseException e = fails("Z4abc");
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "V0 raw signature (f) at offset 2: expected '!' after the length of span 'Z', found 'a'");
    e = fails("Z4!ab");
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "V0 raw signature (f) at offset 0: span 'Z' declares length 4 (the '!' and 3 content"
                + " bytes) but only 3 bytes remain before the end of the text");
  }

  @Test
  void tagWithoutDigitsIsAnError() {
    AbiParseException e = fails("_+12");
    assertThat(e.position()).isEqualTo("offset 1");
    assertThat(e.detail()).isEqualTo("expected digits (an integer) after tag '_', found '+'");
    assertThat(fails("_").detail())
        .isEqualTo("expected digits (an integer) after tag '_', found the end of the text");
    assertThat(fails("a-").detail())
        .isEqualTo("expected digits after '-' after tag 'a', found the end of the text");
    assertThat(fails("A!").detail())
        .isEqualTo("expected digits (a length) after tag 'A', found '!'");
  }

  @Test
  void negativeOrZeroSpanLengthIsAnError() {
    AbiParseException e = fails("Z-3abc");
    assertThat(e.position()).isEqualTo("offset 1");
    assertThat(e.detail()).isEqualTo("expected a span length >= 1 after 'Z', found -3");
    e = fails("Z0!");
    assertThat(e.detail())
        .isEqualTo("expected a span length >= 1 after 'Z' (the length counts the '!'), found 0");
  }

  @Test
  void emptySpan() {
    assertThat(readAll("Z1!")).containsExactly(new SpanComponent('Z', "", 0, 3, 0));
    assertThat(new Builder().span('Z', "").toString()).isEqualTo("Z1!");
  }

  @Test
  void errorsAreFinal() {
    Reader r = Reader.of("_1_+2_3", ReflectionFormat.V0_RAW);
    assertThat(r.next()).isEqualTo(new IntegerComponent('_', 1, 0));
    AbiParseException first = assertThrows(AbiParseException.class, r::next);
    assertThat(r.atEnd()).isFalse();
    AbiParseException again = assertThrows(AbiParseException.class, r::next);
    assertThat(again).hasMessageThat().isEqualTo(first.getMessage());
    assertThat(again).hasCauseThat().isSameInstanceAs(first);
  }

  @Test
  void seekTag() {
    Reader r = Reader.of("_1a2B3!xyc4", ReflectionFormat.V0_RAW);
    assertThat(r.seekTag('B')).hasValue(new SpanComponent('B', "xy", 4, 7, 2));
    assertThat(r.seekTag('q')).isEmpty();
    assertThat(r.atEnd()).isTrue();
    assertThrows(
        AbiParseException.class, () -> Reader.of("_1a+c3", ReflectionFormat.V0_RAW).seekTag('c'));
  }

  @Test
  void leadingZerosAndMinusZeroAreAccepted() {
    assertThat(readAll("_007a-0A03!xy"))
        .containsExactly(
            new IntegerComponent('_', 7, 0),
            new IntegerComponent('a', 0, 4),
            new SpanComponent('A', "xy", 7, 11, 2))
        .inOrder();
  }

  // ---------------------------------------------------------------- ranges

  @Test
  void integersOutsideIntRangeAreErrors() {
    assertThat(readAll("_2147483647_-2147483648"))
        .containsExactly(
            new IntegerComponent('_', Integer.MAX_VALUE, 0),
            new IntegerComponent('_', Integer.MIN_VALUE, 11))
        .inOrder();
    assertThat(fails("_2147483648").detail())
        .isEqualTo(
            "expected an integer within -2147483648..2147483647 after tag '_', found 2147483648");
    assertThat(fails("x-2147483649").detail())
        .isEqualTo(
            "expected an integer within -2147483648..2147483647 after tag 'x', found -2147483649");
    assertThat(fails("_99999999999").position()).isEqualTo("offset 1");
  }

  @Test
  void hugeSpanLengthsFailWithoutAllocating() {
    AbiParseException e = fails("Z2147483647!abc");
    assertThat(e.detail())
        .isEqualTo(
            "span 'Z' declares length 2147483647 (the '!' and 2147483646 content bytes) but only 4"
                + " bytes remain before the end of the text");
    e = fails("Z99999999999!abc");
    assertThat(e.detail())
        .isEqualTo(
            "expected a length within -2147483648..2147483647 after tag 'Z', found 99999999999");
    e = fails("A" + "9".repeat(100_000) + "!");
    assertThat(e.detail())
        .isEqualTo(
            "expected a length within -2147483648..2147483647 after tag 'A', found "
                + "9".repeat(24)
                + "... (100000 digits)");
  }

  @Test
  void insideANestedSpanTheEndIsTheSpansEnd() {
    Reader r = Reader.of("X6!A9!abY1!", ReflectionFormat.V0_RAW);
    Reader inner = r.open((SpanComponent) r.next());
    AbiParseException e = assertThrows(AbiParseException.class, inner::next);
    assertThat(e.detail())
        .isEqualTo(
            "span 'A' declares length 9 (the '!' and 8 content bytes) but only 3 bytes remain"
                + " before the end of the enclosing span");
  }

  // ---------------------------------------------------------------- UTF-8

  @Test
  void lengthsCountUtf8Bytes() {
    String encoded = new Builder().span('K', "größe").integer(1).toString();
    assertThat(encoded).isEqualTo("K8!größe_1");
    List<Component> read = readAll(encoded);
    assertThat(read.get(0)).isEqualTo(new SpanComponent('K', "größe", 0, 3, 7));
    assertThat(read.get(1)).isEqualTo(new IntegerComponent('_', 1, 10));
    assertThat(new Builder().span('K', "\uD83D\uDE00").toString()).isEqualTo("K5!\uD83D\uDE00");
  }

  @Test
  void aSpanEndingInsideACharacterIsAnError() {
    AbiParseException e = fails("K3!gö_1");
    assertThat(e.position()).isEqualTo("offset 5");
    assertThat(e.detail())
        .isEqualTo("span 'K' ends inside a multi-byte UTF-8 character (its length counts bytes)");
    assertThat(fails("é1").detail())
        .isEqualTo(
            "expected a component tag (_ or a..z for an integer, A..Z for a span), found 'é'"
                + " (U+00E9)");
  }

  // ---------------------------------------------------------------- depth

  @Test
  void nestingIsBounded() {
    Builder b = new Builder().integer(1);
    for (int i = 0; i < V0Components.MAX_DEPTH + 1; i++) {
      b = new Builder().span('X', b);
    }
    Reader r = Reader.of(b.toString(), ReflectionFormat.V0_RAW);
    for (int depth = 1; depth <= V0Components.MAX_DEPTH; depth++) {
      r = r.open((SpanComponent) r.next());
      assertThat(r.depth()).isEqualTo(depth);
    }
    Reader deepest = r;
    SpanComponent tooDeep = (SpanComponent) deepest.next();
    AbiParseException e = assertThrows(AbiParseException.class, () -> deepest.open(tooDeep));
    assertThat(e.detail())
        .isEqualTo(
            "expected spans nested at most ParseLimits.MAX_DEPTH = 64 deep, found span 'X' at depth 65");
  }

  // ---------------------------------------------------------------- builder misuse

  @Test
  void builderRejectsBadTags() {
    assertThrows(IllegalArgumentException.class, () -> new Builder().integer('A', 1));
    assertThrows(IllegalArgumentException.class, () -> new Builder().integer('\u0001', 1));
    assertThrows(IllegalArgumentException.class, () -> new Builder().span('a', "x"));
    assertThrows(IllegalArgumentException.class, () -> new Builder().span('!', "x"));
    assertThat(new Builder().isEmpty()).isTrue();
  }

  @Test
  void openRejectsASpanFromElsewhere() {
    Reader r = Reader.of("_1", ReflectionFormat.V0_RAW);
    assertThrows(
        IllegalArgumentException.class, () -> r.open(new SpanComponent('A', "xyz", 10, 13, 3)));
  }
}
