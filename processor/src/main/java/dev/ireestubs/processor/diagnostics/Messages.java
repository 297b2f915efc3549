package dev.ireestubs.processor.diagnostics;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Small pieces of diagnostic text, kept bounded: metadata may hold a million-character key or a
 * module of thousands of functions, and a message quotes it in a readable size.
 */
public final class Messages {

  /** Names longer than this are abbreviated when quoted in a list. */
  public static final int MAX_NAME = 200;

  /** Lists longer than this are cut, saying how many were left out. */
  public static final int MAX_LIST = 60;

  private Messages() {}

  /** {@code "s"}. */
  public static String quote(String s) {
    return "\"" + abbreviate(s, MAX_NAME * 5) + "\"";
  }

  /** {@code 1 argument}, {@code 2 arguments}. */
  public static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** {@code text} cut after {@code max} characters, with {@code ...} when it was. */
  public static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "...";
  }

  /** {@code a, b, c}, each name abbreviated, at most {@link #MAX_LIST} of them. */
  public static String list(Collection<String> names) {
    List<String> shown = new ArrayList<>();
    for (String n : names) {
      if (shown.size() == MAX_LIST) {
        shown.add("... (" + names.size() + " in all)");
        break;
      }
      shown.add(abbreviate(n, MAX_NAME));
    }
    return String.join(", ", shown);
  }

  /** {@code t} and its stack trace, as an internal error reports it. */
  public static String stackTrace(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  /** {@code a}, {@code a or b}, {@code a, b or c}. */
  public static String or(List<String> options) {
    if (options.size() == 1) {
      return options.get(0);
    }
    return String.join(", ", options.subList(0, options.size() - 1))
        + " or "
        + options.get(options.size() - 1);
  }
}
