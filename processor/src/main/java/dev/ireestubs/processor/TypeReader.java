package dev.ireestubs.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
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
 * Reads compiler types into {@link JavaType}s, and every record they name (with its components
 * and their annotations) into the declaration's record table: the one place that asks the compiler
 * what a Java type is.
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
  /** Types without arguments, annotations or enclosing instance, read once each (by element). */
  private final Map<TypeElement, JavaType> plainTypes = new HashMap<>();
  /**
   * Parameterized types and arrays built only of shared types, read once each: methods of a large
   * interface repeat {@code List<FloatArray>} or {@code float[][]} over and over.
   */
  private final Map<Composite, JavaType> compositeTypes = new HashMap<>();
  private final Map<TypeKind, JavaType> primitives = new EnumMap<>(TypeKind.class);
  /** What these caches hold: one object per type, so identity compares them. */
  private final Set<JavaType> shared = Collections.newSetFromMap(new IdentityHashMap<>());

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

  /** {@code t} as a plain value; records it names are added to {@link #records()}. */
  JavaType read(TypeMirror t) {
    switch (t.getKind()) {
      case ERROR:
        return new JavaType.Unresolved(t.toString());
      case VOID:
        return new JavaType.Void();
      case BOOLEAN:
        return primitive(TypeKind.BOOLEAN, boolean.class);
      case BYTE:
        return primitive(TypeKind.BYTE, byte.class);
      case SHORT:
        return primitive(TypeKind.SHORT, short.class);
      case INT:
        return primitive(TypeKind.INT, int.class);
      case LONG:
        return primitive(TypeKind.LONG, long.class);
      case CHAR:
        return primitive(TypeKind.CHAR, char.class);
      case FLOAT:
        return primitive(TypeKind.FLOAT, float.class);
      case DOUBLE:
        return primitive(TypeKind.DOUBLE, double.class);
      case ARRAY:
        return array((ArrayType) t);
      case DECLARED:
        return declared((DeclaredType) t);
      case WILDCARD:
        {
          WildcardType w = (WildcardType) t;
          TypeMirror bound = w.getExtendsBound() != null ? w.getExtendsBound() : w.getSuperBound();
          return new JavaType.Wildcard(
              bound == null ? Optional.empty() : Optional.of(read(bound)), display(t));
        }
      default:
        return new JavaType.Other(typeName(t), display(t));
    }
  }

  private JavaType primitive(TypeKind kind, Class<?> type) {
    JavaType known = primitives.get(kind);
    if (known == null) {
      known = share(new JavaType.Primitive(type));
      primitives.put(kind, known);
    }
    return known;
  }

  private JavaType array(ArrayType t) {
    JavaType component = read(t.getComponentType());
    // A shared primitive stands for annotated ones too, but display() spells their annotations.
    if (!shared.contains(component)
        || !t.getAnnotationMirrors().isEmpty()
        || !t.getComponentType().getAnnotationMirrors().isEmpty()) {
      return new JavaType.ArrayOf(component, typeName(t), display(t));
    }
    Composite key = new Composite(null, new JavaType[] {component});
    JavaType known = compositeTypes.get(key);
    if (known == null) {
      known = share(new JavaType.ArrayOf(component, typeName(t), display(t)));
      compositeTypes.put(key, known);
    }
    return known;
  }

  private JavaType declared(DeclaredType t) {
    TypeElement te = (TypeElement) t.asElement();
    List<? extends TypeMirror> typeArguments = t.getTypeArguments();
    if (!t.getAnnotationMirrors().isEmpty()
        || t.getEnclosingType().getKind() != TypeKind.NONE) {
      return readDeclared(t, te, readAll(typeArguments));
    }
    if (typeArguments.isEmpty()) {
      JavaType known = plainTypes.get(te);
      if (known == null) {
        known = share(readDeclared(t, te, List.of()));
        plainTypes.put(te, known);
      }
      return known;
    }
    List<JavaType> arguments = readAll(typeArguments);
    Composite key = new Composite(te, arguments.toArray(new JavaType[0]));
    for (JavaType a : key.parts) {
      if (!shared.contains(a)) {
        return readDeclared(t, te, arguments);
      }
    }
    JavaType known = compositeTypes.get(key);
    if (known == null) {
      known = share(readDeclared(t, te, arguments));
      compositeTypes.put(key, known);
    }
    return known;
  }

  private JavaType share(JavaType t) {
    shared.add(t);
    return t;
  }

  private List<JavaType> readAll(List<? extends TypeMirror> types) {
    List<JavaType> out = new ArrayList<>(types.size());
    for (TypeMirror a : types) {
      out.add(read(a));
    }
    return out;
  }

  /**
   * A parameterized type (its element and arguments) or an array (no element, its component),
   * the parts compared by identity: they are {@link #shared} types, one object per type.
   */
  private static final class Composite {
    final TypeElement element;
    final JavaType[] parts;

    Composite(TypeElement element, JavaType[] parts) {
      this.element = element;
      this.parts = parts;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Composite)) {
        return false;
      }
      Composite c = (Composite) o;
      if (c.element != element || c.parts.length != parts.length) {
        return false;
      }
      for (int i = 0; i < parts.length; i++) {
        if (c.parts[i] != parts[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      int h = System.identityHashCode(element);
      for (JavaType p : parts) {
        h = 31 * h + System.identityHashCode(p);
      }
      return h;
    }
  }

  private JavaType readDeclared(DeclaredType t, TypeElement te, List<JavaType> arguments) {
    boolean resolved = true;
    for (JavaType arg : arguments) {
      resolved &= !(arg instanceof JavaType.Unresolved);
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
   * The element to report a component's diagnostics on: its private field, which javac 17
   * positions on the component (it has no position for the component element itself).
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
      case DECLARED:
        {
          DeclaredType d = (DeclaredType) t;
          String name = d.asElement().getSimpleName().toString();
          if (d.getTypeArguments().isEmpty()) {
            return name;
          }
          return d.getTypeArguments().stream()
              .map(TypeReader::display)
              .collect(Collectors.joining(", ", name + "<", ">"));
        }
      case ARRAY:
        return display(((ArrayType) t).getComponentType()) + "[]";
      case WILDCARD:
        {
          WildcardType w = (WildcardType) t;
          if (w.getExtendsBound() != null) {
            return "? extends " + display(w.getExtendsBound());
          }
          if (w.getSuperBound() != null) {
            return "? super " + display(w.getSuperBound());
          }
          return "?";
        }
      default:
        return t.toString();
    }
  }
}
