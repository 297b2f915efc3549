package dev.ireestubs.processor.diagnostics;

import java.util.Map;
import java.util.Objects;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;

/**
 * A {@link Location} in the compiler's terms: an element, and optionally one of its annotations and
 * a value of it (both null for the element itself; the value null for the whole annotation).
 *
 * @param element the element the diagnostic is on
 * @param mirror one of its annotations, or null
 * @param value a value of that annotation, or null
 */
public record ElementLocation(Element element, AnnotationMirror mirror, AnnotationValue value)
    implements Location {

  /** Checks that a value comes with its annotation. */
  public ElementLocation {
    Objects.requireNonNull(element, "element");
    if (value != null && mirror == null) {
      throw new IllegalArgumentException("an annotation value needs its annotation");
    }
  }

  /** The element itself. */
  public static ElementLocation of(Element element) {
    return new ElementLocation(element, null, null);
  }

  /**
   * {@code member}'s value of {@code mirror} on {@code element}, or the annotation if unwritten.
   */
  public static ElementLocation of(Element element, AnnotationMirror mirror, String member) {
    return new ElementLocation(element, mirror, explicitValue(mirror, member));
  }

  /** The value of {@code member} when written explicitly, else null (the annotation is shown). */
  private static AnnotationValue explicitValue(AnnotationMirror m, String member) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        m.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(member)) {
        return e.getValue();
      }
    }
    return null;
  }
}
