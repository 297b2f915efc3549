package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The findings of fuzzing (issue 20) as regression tests, and every {@link ParseLimits} limit:
 * inputs beyond a limit are refused with the limit's name and value, and large inputs within the
 * limits cost memory linear in their size.
 *
 * <p>Allocation is measured with {@code com.sun.management.ThreadMXBean} and must stay within
 * {@value #BYTES_PER_CHAR} bytes per input character (plus a small constant): deterministic, and
 * far below what the quadratic behaviour cost (20 GB for the first input). Time is printed, not
 * asserted.
 */
class ParseLimitsTest {

  /** The allocation allowed per input character. */
  static final long BYTES_PER_CHAR = 100;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  // ---------------------------------------------------------------- the inputs of issue 20

  /** {"a":[],"r":[],"<key>":[0,0,...]}: a long key (ignored by the parser) over many values. */
  private static String longKeyOverZeros(int keyLength, int zeros) {
    StringBuilder sb = new StringBuilder("{\"a\":[],\"r\":[],\"");
    sb.append("k".repeat(keyLength)).append("\":[");
    for (int i = 0; i < zeros; i++) {
      sb.append(i == 0 ? "0" : ",0");
    }
    return sb.append("]}").toString();
  }

  @Test
  void theIssuesFunctionObjectIsRefusedAtOnceForItsKey() {
    // 850 KB: a 50,000-character key over 400,000 zeros took 30 s and 20 GB.
    String json = longKeyOverZeros(50_000, 400_000);
    AbiParseException e =
        measured(
            "850 KB, 50,000-character key", json, () -> refused(() -> AbiJson.parseFunction(json)));
    assertThat(e.detail())
        .isEqualTo("an object key is longer than ParseLimits.MAX_NAME_LENGTH = 4,096 characters");
    assertThat(e.position()).startsWith("line 1, column ");
  }

  @Test
  void aLongKeyWithinTheLimitOverManyValuesIsLinear() {
    // The same shape within the limits: every value used to build a path holding the key.
    String big = longKeyOverZeros(4_000, 400_000);
    FunctionSignature s =
        measured("804 KB, 4,000-character key", big, () -> AbiJson.parseFunction(big));
    assertThat(s.arguments()).isEmpty();
    String smaller = longKeyOverZeros(4_000, 120_000);
    measured("244 KB, 4,000-character key", smaller, () -> AbiJson.parseFunction(smaller));
  }

  @Test
  void aModuleWithALongFunctionNameOverManyRecordsIsLinear() {
    // 6 MB at module level: each record's path held the function name (5 GB allocated).
    StringBuilder sb = new StringBuilder("{\"").append("f".repeat(4_000)).append("\":{\"a\":[");
    for (int i = 0; i < 1_000_000; i++) {
      sb.append(i == 0 ? "\"i32\"" : ",\"i32\"");
    }
    String json = sb.append("],\"r\":[]}}").toString();
    Map<String, FunctionSignature> m =
        measured("6 MB module", json, () -> AbiJson.parseModule(json));
    assertThat(m.values().iterator().next().arguments()).hasSize(1_000_000);
  }

  @Test
  void aLongKeyAboveManyNestedRecordsIsLinear() {
    // A key near the root of a deep record: each nested record's path held it.
    String inner = "[\"slist\",".repeat(50) + "\"i32\"" + "]".repeat(50);
    StringBuilder sb =
        new StringBuilder("{\"a\":[[\"sdict\",[\"")
            .append("k".repeat(4_000))
            .append("\",[\"slist\"");
    for (int i = 0; i < 2_000; i++) {
      sb.append(',').append(inner);
    }
    String json = sb.append("]]]],\"r\":[]}").toString();
    measured("nested records under a long key", json, () -> AbiJson.parseFunction(json));
  }

  @Test
  void nonFiniteNumbersAreRefusedAndDecimalsPrintBackAsWritten() {
    // Kept as Infinity, the record printed as the JSON string "[\"ndarray\",\"p32\",2,Infinity,4]".
    AbiParseException e =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseFunction("{\"a\":[[\"ndarray\",\"p32\",2,1e999,4]],\"r\":[]}"));
    assertThat(e.detail()).isEqualTo("the number 1e999 is beyond the range of a double");
    assertThat(e.position()).isEqualTo("$.a[0] (line 1, column 26)");
    String decimals =
        "{\"a\":[[\"ndarray\",\"p32\",2,1e300,-0.5e-3,1E+2]],\"r\":[[\"nderray\",0.0]]}";
    FunctionSignature s = AbiJson.parseFunction(decimals);
    assertThat(((AbiType.Unsupported) s.arguments().get(0)).source())
        .isEqualTo("[\"ndarray\",\"p32\",2,1e300,-0.5e-3,1E+2]");
    assertThat(AbiJson.print(s)).isEqualTo(decimals);
    assertThat(AbiJson.parseFunction(AbiJson.print(s))).isEqualTo(s);
  }

  @Test
  void anUnknownTagInsideAStructureSurvivesAModuleRoundTrip() {
    String module = "{\"f\":{\"a\":[[\"stuple\",[\"nderray\",\"f32\",1,2.5]]],\"r\":[]}}";
    Map<String, FunctionSignature> m = AbiJson.parseModule(module);
    AbiType.Sequence tuple = (AbiType.Sequence) m.get("f").arguments().get(0);
    AbiType.Unsupported odd = (AbiType.Unsupported) tuple.elements().get(0);
    assertThat(odd.format()).isEqualTo(ReflectionFormat.IREE_ABI_JSON);
    assertThat(AbiJson.printModule(m)).isEqualTo(module);
    assertThat(AbiJson.parseModule(AbiJson.printModule(m))).isEqualTo(m);
  }

  @Test
  void aVariadicCallingConventionIsAParseErrorOfResolve() {
    // It threw IllegalStateException from CallingConvention.toSignature.
    AbiParseException e =
        assertThrows(AbiParseException.class, () -> Reflection.resolve(Map.of(), "0CiD_v"));
    assertThat(e.format()).isEqualTo(ReflectionFormat.CALLING_CONVENTION);
    assertThat(e.position()).isEqualTo("offset 1");
    assertThat(e.detail()).contains("variadic segment C...D, which only imports have");
    // Better reflection still wins over the variadic convention's silence.
    assertThat(Reflection.resolve(Map.of("iree.abi", "{\"a\":[],\"r\":[]}"), "0CiD_v").source())
        .isEqualTo("iree.abi");
  }

  // ---------------------------------------------------------------- each limit, named

  @Test
  void textLengthIsLimitedInEveryFormat() {
    String huge = " ".repeat(ParseLimits.MAX_TEXT_LENGTH + 1);
    String expected =
        "the text is 8,388,609 characters long, more than ParseLimits.MAX_TEXT_LENGTH = 8,388,608";
    for (Supplier<?> parse :
        List.<Supplier<?>>of(
            () -> AbiJson.parseFunction(huge),
            () -> AbiJson.parseModule(huge),
            () -> Declaration.parse(huge),
            () -> MlirTypes.parse(huge),
            () -> CallingConvention.parse(huge),
            () -> V0RawSignature.parse(huge),
            () -> SipSignature.parse(huge))) {
      AbiParseException e = measured("text over MAX_TEXT_LENGTH", huge, () -> refused(parse));
      assertThat(e.detail()).isEqualTo(expected);
      assertThat(e.position()).isEqualTo("offset 0");
    }
  }

  @Test
  void nestingIsLimitedToMaxDepthLevels() {
    // The function object and "a" are two levels, so records may nest MAX_DEPTH - 2 deep.
    int levels = ParseLimits.MAX_DEPTH - 2;
    String ok = "[\"slist\",".repeat(levels) + "\"i32\"" + "]".repeat(levels);
    AbiJson.parseFunction("{\"a\":[" + ok + "],\"r\":[]}");
    String deep = "[\"slist\"," + ok + "]";
    AbiParseException e =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseFunction("{\"a\":[" + deep + "],\"r\":[]}"));
    assertThat(e.detail())
        .isEqualTo("arrays and objects nested more than ParseLimits.MAX_DEPTH = 64 levels deep");
    assertThat(MlirTypes.MAX_DEPTH).isEqualTo(ParseLimits.MAX_DEPTH);
    assertThat(V0Components.MAX_DEPTH).isEqualTo(ParseLimits.MAX_DEPTH);
  }

  @Test
  void namesAreLimitedAsObjectKeysSdictKeysNamedArgumentsAndSipKeys() {
    String atLimit = "n".repeat(ParseLimits.MAX_NAME_LENGTH);
    String over = atLimit + "n";
    AbiJson.parseModule("{\"" + atLimit + "\":{\"a\":[],\"r\":[]}}");
    assertThat(
            assertThrows(
                    AbiParseException.class,
                    () -> AbiJson.parseModule("{\"" + over + "\":{\"a\":[],\"r\":[]}}"))
                .detail())
        .isEqualTo("an object key is longer than ParseLimits.MAX_NAME_LENGTH = 4,096 characters");
    AbiJson.parseType("[\"sdict\",[\"" + atLimit + "\",\"i32\"]]");
    AbiParseException sdict =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseType("[\"sdict\",[\"" + over + "\",\"i32\"]]"));
    assertThat(sdict.detail())
        .isEqualTo(
            "the sdict key is 4,097 characters long, more than ParseLimits.MAX_NAME_LENGTH ="
                + " 4,096");
    assertThat(sdict.position()).isEqualTo("$[1][0] (line 1, column 11)");
    AbiParseException named =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseFunction("{\"a\":[[\"named\",\"" + over + "\",\"i32\"]],\"r\":[]}"));
    assertThat(named.detail())
        .isEqualTo(
            "the argument name is 4,097 characters long, more than ParseLimits.MAX_NAME_LENGTH"
                + " = 4,096");
    String sip = span('I', span('D', span('K', over) + "_0")) + "R1!";
    SipSignature.parse(span('I', span('D', span('K', atLimit) + "_0")) + "R1!");
    AbiParseException sipKey = assertThrows(AbiParseException.class, () -> SipSignature.parse(sip));
    assertThat(sipKey.detail())
        .isEqualTo(
            "the dict key is 4,097 characters long, more than ParseLimits.MAX_NAME_LENGTH = 4,096");
  }

  @Test
  void stringsAndNumbersAreLimited() {
    String string = "s".repeat(ParseLimits.MAX_STRING_LENGTH + 1);
    AbiParseException s =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseFunction("{\"a\":[],\"r\":[],\"doc\":\"" + string + "\"}"));
    assertThat(s.detail())
        .isEqualTo("a string is longer than ParseLimits.MAX_STRING_LENGTH = 65,536 characters");
    String number = "1".repeat(ParseLimits.MAX_NUMBER_LENGTH + 1);
    AbiParseException n =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseType("[\"ndarray\",\"f32\",1," + number + "]"));
    assertThat(n.detail())
        .isEqualTo("a number is longer than ParseLimits.MAX_NUMBER_LENGTH = 64 characters");
  }

  @Test
  void functionsPerModuleAreLimited() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i <= ParseLimits.MAX_FUNCTIONS; i++) {
      sb.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":{\"a\":[],\"r\":[]}");
    }
    String json = sb.append('}').toString();
    AbiParseException e =
        measured("65,537 functions", json, () -> refused(() -> AbiJson.parseModule(json)));
    assertThat(e.detail())
        .isEqualTo(
            "the number of functions is 65,537, more than ParseLimits.MAX_FUNCTIONS = 65,536");
  }

  // ---------------------------------------------------------------- measuring

  /** A V0 span: tag, length (contents plus the '!'), '!', contents (ASCII here). */
  private static String span(char tag, String contents) {
    return tag + Integer.toString(contents.length() + 1) + "!" + contents;
  }

  @Test
  void aCallingConventionOfAMillionSlotsIsLinear() {
    // 2 MB of text, within MAX_TEXT_LENGTH: one object per slot made it allocate 546 MB.
    String cconv = "0" + "i".repeat(1_000_000) + "_v";
    CallingConvention c =
        measured(
            "a calling convention of 1,000,000 i", cconv, () -> CallingConvention.parse(cconv));
    assertThat(c.arity()).isEqualTo(1_000_000);
    assertThat(c.toString()).isEqualTo(cconv);
    FunctionSignature s =
        measured(
            "the signature of a calling convention of 1,000,000 i",
            cconv,
            () -> Reflection.resolve(java.util.Map.of(), cconv).signature());
    measured(
        "the bind-time check of a calling convention of 1,000,000 i",
        cconv,
        () -> CallingConvention.parse(cconv).mismatches(s));
    measured(
        "the calling convention a signature of 1,000,000 i32 expects",
        cconv,
        () -> CallingConvention.expectedFor(s).orElseThrow().toString());
  }

  private static AbiParseException refused(Supplier<?> parse) {
    return assertThrows(AbiParseException.class, parse::get);
  }

  /**
   * Runs {@code step} on {@code input} twice (the first run loads classes), asserts the second
   * allocated at most {@link #BYTES_PER_CHAR} per character plus 1 MB, and prints the figures.
   */
  private static <T> T measured(String what, String input, Supplier<T> step) {
    step.get();
    long bytes = THREADS.getCurrentThreadAllocatedBytes();
    long start = System.nanoTime();
    T result = step.get();
    long nanos = System.nanoTime() - start;
    long allocated = THREADS.getCurrentThreadAllocatedBytes() - bytes;
    System.out.printf(
        Locale.ROOT,
        "parse limits: %s: %,d characters in %.1f ms, %,d bytes allocated (%.1f per character)%n",
        what,
        input.length(),
        nanos / 1e6,
        allocated,
        allocated / (double) input.length());
    assertWithMessage("%s: bytes allocated for %s characters", what, input.length())
        .that(allocated)
        .isAtMost(BYTES_PER_CHAR * input.length() + (1 << 20));
    return result;
  }
}
