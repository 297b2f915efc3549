package dev.ireestubs.processor;

import java.util.Objects;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;

/**
 * A {@link Location} in the compiler's terms: an element, and optionally one of its annotations
 * and a value of it (both null for the element itself; the value null for the whole annotation).
 */
record ElementLocation(Element element, AnnotationMirror mirror, AnnotationValue value)
    implements Location {

  ElementLocation {
    Objects.requireNonNull(element, "element");
    if (value != null && mirror == null) {
      throw new IllegalArgumentException("an annotation value needs its annotation");
    }
  }

  /** The element itself. */
  static ElementLocation of(Element element) {
    return new ElementLocation(element, null, null);
  }

  /** {@code member}'s value of {@code mirror} on {@code element}, or the annotation if unwritten. */
  static ElementLocation of(Element element, AnnotationMirror mirror, String member) {
    return new ElementLocation(element, mirror, Annotations.explicitValue(mirror, member));
  }
}
