package dev.ireestubs.processor.declaration;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.processor.diagnostics.ElementLocation;
import dev.ireestubs.processor.diagnostics.Location;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reads compiler types into {@link JavaType}s, and every record they name (with its components and
 * their annotations) into the declaration's record table: the one place that asks the compiler what
 * a Java type is. It keeps every type it met that did not resolve ({@link #unresolved()}), so that
 * the declaration knows before anything else is read whether it must wait for a later round.
 */
final class TypeReader {

  static final String VM_REF = "dev.ireestubs.vm.VmRef";

  private final Elements elements;
  private final Types types;
  private final PackageElement stubPackage;
  private final Predicate<Element> hasSource;
  private final TypeMirror vmRef;
  private final Map<String, Declaration.RecordType> records = new LinkedHashMap<>();
  private final Set<String> reading = new HashSet<>();
  private final Set<String> unresolved = new LinkedHashSet<>();

  /** Types without arguments, annotations or enclosing instance, read once each (by element). */
  private final Map<TypeElement, JavaType> plainTypes = new HashMap<>();

  /**
   * @param stubPackage the package the stub is generated in: what it can access
   * @param hasSource whether an element is compiled from source now
   */
  TypeReader(
      Elements elements, Types types, PackageElement stubPackage, Predicate<Element> hasSource) {
    this.elements = elements;
    this.types = types;
    this.stubPackage = stubPackage;
    this.hasSource = hasSource;
    TypeElement ref = elements.getTypeElement(VM_REF);
    this.vmRef = ref == null ? null : types.erasure(ref.asType());
  }

  /** The records read so far, by qualified name. */
  Map<String, Declaration.RecordType> records() {
    return records;
  }

  /**
   * The types read so far that did not resolve (in parameters, results, type arguments, array
   * components, wildcard bounds and record components), in the order met.
   */
  Set<String> unresolved() {
    return unresolved;
  }

  /** {@code t} as a plain value; records it names are added to {@link #records()}. */
  JavaType read(TypeMirror t) {
    switch (t.getKind()) {
      case ERROR -> {
        unresolved.add(t.toString());
        return new JavaType.Unresolved(t.toString());
      }
      case VOID -> {
        return new JavaType.Void();
      }
      case BOOLEAN -> {
        return new JavaType.Primitive(boolean.class);
      }
      case BYTE -> {
        return new JavaType.Primitive(byte.class);
      }
      case SHORT -> {
        return new JavaType.Primitive(short.class);
      }
      case INT -> {
        return new JavaType.Primitive(int.class);
      }
      case LONG -> {
        return new JavaType.Primitive(long.class);
      }
      case CHAR -> {
        return new JavaType.Primitive(char.class);
      }
      case FLOAT -> {
        return new JavaType.Primitive(float.class);
      }
      case DOUBLE -> {
        return new JavaType.Primitive(double.class);
      }
      case ARRAY -> {
        return new JavaType.ArrayOf(
            read(((ArrayType) t).getComponentType()), typeName(t), display(t));
      }
      case DECLARED -> {
        return declared((DeclaredType) t);
      }
      case WILDCARD -> {
        WildcardType w = (WildcardType) t;
        TypeMirror bound = w.getExtendsBound() != null ? w.getExtendsBound() : w.getSuperBound();
        return new JavaType.Wildcard(
            bound == null ? Optional.empty() : Optional.of(read(bound)), display(t));
      }
      default -> {
        return new JavaType.Other(typeName(t), display(t));
      }
    }
  }

  private JavaType declared(DeclaredType t) {
    TypeElement te = (TypeElement) t.asElement();
    boolean plain =
        t.getTypeArguments().isEmpty()
            && t.getAnnotationMirrors().isEmpty()
            && t.getEnclosingType().getKind() == TypeKind.NONE;
    if (!plain) {
      return readDeclared(t, te);
    }
    JavaType known = plainTypes.get(te);
    if (known == null) {
      known = readDeclared(t, te);
      plainTypes.put(te, known);
    }
    return known;
  }

  private JavaType readDeclared(DeclaredType t, TypeElement te) {
    List<JavaType> arguments = new ArrayList<>();
    boolean resolved = true;
    for (TypeMirror a : t.getTypeArguments()) {
      JavaType arg = read(a);
      resolved &= !(arg instanceof JavaType.Unresolved);
      arguments.add(arg);
    }
    JavaType.DeclaredKind kind = JavaType.DeclaredKind.OTHER;
    if (te.getKind() == ElementKind.RECORD) {
      kind = JavaType.DeclaredKind.RECORD;
      readRecord(te);
    } else if (vmRef != null && types.isAssignable(t, vmRef)) {
      kind = JavaType.DeclaredKind.VM_REF;
    }
    ClassName raw = ClassName.get(te);
    return new JavaType.Declared(
        te.getQualifiedName().toString(),
        te.getSimpleName().toString(),
        raw,
        resolved ? typeName(t) : raw,
        display(t),
        arguments,
        kind,
        accessible(te));
  }

  private void readRecord(TypeElement record) {
    String name = record.getQualifiedName().toString();
    if (records.containsKey(name) || !reading.add(name)) {
      return; // read, or being read (a record that contains itself through a list)
    }
    List<Declaration.Component> components = new ArrayList<>();
    for (RecordComponentElement c : record.getRecordComponents()) {
      Location at = ElementLocation.of(componentElement(record, c));
      Optional<AnnotationMirror> key = Annotations.find(c, Annotations.IREE_KEY);
      Optional<ElementLocation> keyAt = canonicalParameter(record, c).flatMap(TypeReader::keyOn);
      components.add(
          new Declaration.Component(
              c.getSimpleName().toString(),
              read(c.asType()),
              key.map(
                  m ->
                      new Declaration.Key(
                          Annotations.string(elements, m, "value"),
                          keyAt.map(Location.class::cast).orElse(at))),
              at));
    }
    records.put(
        name,
        new Declaration.RecordType(
            name,
            record.getSimpleName().toString(),
            ClassName.get(record),
            !record.getTypeParameters().isEmpty(),
            accessible(record),
            hasSource.test(record),
            components,
            ElementLocation.of(record)));
    reading.remove(name);
  }

  private static Optional<ElementLocation> keyOn(Element parameter) {
    return Annotations.find(parameter, Annotations.IREE_KEY)
        .map(m -> ElementLocation.of(parameter, m, "value"));
  }

  /**
   * The element to report a component's diagnostics on: its private field, which javac 17 positions
   * on the component (it has no position for the component element itself).
   */
  private static Element componentElement(TypeElement record, RecordComponentElement c) {
    for (VariableElement f : ElementFilter.fieldsIn(record.getEnclosedElements())) {
      if (f.getSimpleName().equals(c.getSimpleName())
          && !f.getModifiers().contains(Modifier.STATIC)) {
        return f;
      }
    }
    return c;
  }

  /** The canonical constructor's parameter for component {@code c}. */
  private Optional<Element> canonicalParameter(TypeElement record, RecordComponentElement c) {
    List<? extends RecordComponentElement> components = record.getRecordComponents();
    int index = components.indexOf(c);
    for (ExecutableElement k : ElementFilter.constructorsIn(record.getEnclosedElements())) {
      List<? extends VariableElement> params = k.getParameters();
      if (params.size() != components.size()) {
        continue;
      }
      boolean canonical = true;
      for (int i = 0; i < params.size(); i++) {
        if (!types.isSameType(params.get(i).asType(), components.get(i).asType())) {
          canonical = false;
          break;
        }
      }
      if (canonical) {
        return Optional.of(params.get(index));
      }
    }
    return Optional.empty();
  }

  /** Whether code in the stub's package can name {@code te}. */
  boolean accessible(TypeElement te) {
    for (Element e = te; e instanceof TypeElement; e = e.getEnclosingElement()) {
      Set<Modifier> mods = e.getModifiers();
      if (mods.contains(Modifier.PRIVATE)) {
        return false;
      }
      if (!mods.contains(Modifier.PUBLIC) && !elements.getPackageOf(e).equals(stubPackage)) {
        return false;
      }
    }
    return true;
  }

  private static TypeName typeName(TypeMirror t) {
    try {
      return TypeName.get(t);
    } catch (RuntimeException e) {
      // A type JavaPoet cannot name (an intersection, say): binding reports it as a mismatch.
      return com.palantir.javapoet.ClassName.OBJECT;
    }
  }

  /** A Java type as a user reads it: simple names, {@code List<FloatArray>}, {@code float[][]}. */
  static String display(TypeMirror t) {
    switch (t.getKind()) {
      case DECLARED -> {
        DeclaredType d = (DeclaredType) t;
        String name = d.asElement().getSimpleName().toString();
        if (d.getTypeArguments().isEmpty()) {
          return name;
        }
        return d.getTypeArguments().stream()
            .map(TypeReader::display)
            .collect(Collectors.joining(", ", name + "<", ">"));
      }
      case ARRAY -> {
        return display(((ArrayType) t).getComponentType()) + "[]";
      }
      case WILDCARD -> {
        WildcardType w = (WildcardType) t;
        if (w.getExtendsBound() != null) {
          return "? extends " + display(w.getExtendsBound());
        }
        if (w.getSuperBound() != null) {
          return "? super " + display(w.getSuperBound());
        }
        return "?";
      }
      default -> {
        return t.toString();
      }
    }
  }
}
