package dev.ireestubs.processor.declaration;

import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/** Reading our annotations as mirrors, so diagnostics can point at an annotation value. */
public final class Annotations {
  public static final String IREE_MODULE = "dev.ireestubs.annotations.IreeModule";
  static final String IREE_FUNCTION = "dev.ireestubs.annotations.IreeFunction";
  static final String IREE_KEY = "dev.ireestubs.annotations.IreeKey";
  public static final String IREE_CLIENT = "dev.ireestubs.annotations.IreeClient";
  public static final String IREE_CLIENTS = "dev.ireestubs.annotations.IreeClients";

  private Annotations() {}

  /** The annotation of type {@code qualifiedName} on {@code e}, if present. */
  public static Optional<AnnotationMirror> find(Element e, String qualifiedName) {
    for (AnnotationMirror m : e.getAnnotationMirrors()) {
      Element type = m.getAnnotationType().asElement();
      if (type instanceof TypeElement typeElement
          && typeElement.getQualifiedName().contentEquals(qualifiedName)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** The value of {@code member} when written explicitly (so a diagnostic can point at it). */
  public static AnnotationValue explicitValue(AnnotationMirror m, String member) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        m.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(member)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** The string value of {@code member}, defaults included; "" when it is not a string. */
  public static String string(Elements elements, AnnotationMirror m, String member) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        elements.getElementValuesWithDefaults(m).entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(member)) {
        Object v = e.getValue().getValue();
        return v instanceof String string ? string : "";
      }
    }
    return "";
  }

  /** The name of an enum constant member ({@code "PYDM"}), or "" when unset and defaultless. */
  static String enumName(Elements elements, AnnotationMirror m, String member) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        elements.getElementValuesWithDefaults(m).entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(member)) {
        Object v = e.getValue().getValue();
        return v instanceof javax.lang.model.element.VariableElement variableElement
            ? variableElement.getSimpleName().toString()
            : "";
      }
    }
    return "";
  }
}
