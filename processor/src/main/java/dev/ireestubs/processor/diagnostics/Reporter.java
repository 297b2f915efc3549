package dev.ireestubs.processor.diagnostics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Collects the diagnostics of one interface, so they are printed only when the interface is not
 * deferred to a later round, in the order found, each once. Errors are never thrown. Messages are
 * kept to a bounded length ({@link #MAX_MESSAGE}): a key of a million characters makes a long
 * diagnostic, not a huge one.
 */
public final class Reporter {

  /** One diagnostic, with where it goes. */
  record Entry(
      Diagnostic.Kind kind,
      String message,
      Element element,
      AnnotationMirror mirror,
      AnnotationValue value) {}

  /** Longer messages are cut in the middle (they quote metadata, which may be huge). */
  public static final int MAX_MESSAGE = 8000;

  private final Element fallback;
  private final Predicate<Element> hasSource;
  private final List<Entry> entries = new ArrayList<>();
  private int errorCount;

  /**
   * @param fallback where diagnostics on elements without source go (the annotated interface)
   * @param hasSource whether an element has source in this compilation, so the compiler can show
   *     the line
   */
  public Reporter(Element fallback, Predicate<Element> hasSource) {
    this.fallback = Objects.requireNonNull(fallback);
    this.hasSource = Objects.requireNonNull(hasSource);
  }

  /** An error at {@code location}. */
  public void error(Tag tag, String message, Location location) {
    add(Diagnostic.Kind.ERROR, tag, message, location);
  }

  /** A warning at {@code location}. */
  public void warning(Tag tag, String message, Location location) {
    add(Diagnostic.Kind.WARNING, tag, message, location);
  }

  private void add(Diagnostic.Kind kind, Tag tag, String message, Location location) {
    ElementLocation at = (ElementLocation) location;
    if (at == null) {
      add(kind, tag, message, null, null, null);
    } else {
      add(kind, tag, message, at.element(), at.mirror(), at.value());
    }
  }

  private void add(
      Diagnostic.Kind kind,
      Tag tag,
      String message,
      Element element,
      AnnotationMirror mirror,
      AnnotationValue value) {
    Element where = element == null ? fallback : element;
    if (where != fallback && !hasSource.test(where)) {
      // Compiled elsewhere (a library's super-interface or record): no line to show, so say it on
      // the annotated interface, naming the element.
      message = message + " (in " + describe(where) + ")";
      where = fallback;
      mirror = null;
      value = null;
    }
    entries.add(new Entry(kind, tag.prefix() + bounded(message), where, mirror, value));
    if (kind == Diagnostic.Kind.ERROR) {
      errorCount++;
    }
  }

  /** {@code message}, cut in the middle when it is over {@link #MAX_MESSAGE} characters. */
  static String bounded(String message) {
    if (message.length() <= MAX_MESSAGE) {
      return message;
    }
    int keep = MAX_MESSAGE / 2;
    return message.substring(0, keep)
        + " [... "
        + (message.length() - 2 * keep)
        + " characters ...] "
        + message.substring(message.length() - keep);
  }

  private static String describe(Element e) {
    Element enclosing = e.getEnclosingElement();
    String owner = enclosing == null ? "" : enclosing.toString();
    return switch (e.getKind()) {
      case METHOD -> "method " + owner + "." + e;
      case PARAMETER -> "parameter " + e.getSimpleName() + " of " + describe(enclosing);
      case RECORD_COMPONENT -> "component " + e.getSimpleName() + " of record " + owner;
      default ->
          e.getKind().toString().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " " + e;
    };
  }

  /** True when an error was reported. */
  public boolean hasErrors() {
    return errorCount > 0;
  }

  /** The diagnostics so far, in order. */
  List<Entry> entries() {
    return List.copyOf(entries);
  }

  /** Prints every diagnostic once, in the order reported. */
  public void flush(Messager messager) {
    Set<Entry> printed = new LinkedHashSet<>(entries);
    for (Entry e : printed) {
      if (e.mirror() == null) {
        messager.printMessage(e.kind(), e.message(), e.element());
      } else if (e.value() == null) {
        messager.printMessage(e.kind(), e.message(), e.element(), e.mirror());
      } else {
        messager.printMessage(e.kind(), e.message(), e.element(), e.mirror(), e.value());
      }
    }
    entries.clear();
  }
}
