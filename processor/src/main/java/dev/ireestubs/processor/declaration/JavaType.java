package dev.ireestubs.processor.declaration;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Java type as the user wrote it, read once from the declaration: what the binder matches against
 * a type record. Plain values (JavaPoet names and strings), so binding needs no compiler.
 */
public sealed interface JavaType
    permits JavaType.Primitive,
        JavaType.Declared,
        JavaType.ArrayOf,
        JavaType.Wildcard,
        JavaType.Unresolved,
        JavaType.Void,
        JavaType.Other {

  /** The type as generated code spells it. */
  TypeName typeName();

  /** The type as a user reads it in a message: simple names, {@code List<FloatArray>}. */
  String display();

  /** {@code int}, {@code float}, ...: {@code type} is {@code int.class}, .... */
  record Primitive(Class<?> type) implements JavaType {
    public Primitive {
      if (!type.isPrimitive() || type == void.class) {
        throw new IllegalArgumentException("not a primitive: " + type);
      }
    }

    @Override
    public TypeName typeName() {
      return TypeName.get(type);
    }

    @Override
    public String display() {
      return type.getName();
    }
  }

  /** What a declared type is, as far as binding cares. */
  enum DeclaredKind {
    /** A record class: its components are in the declaration's record table. */
    RECORD,
    /** {@code dev.ireestubs.vm.VmRef} or a subtype of it. */
    VM_REF,
    /** Any other class or interface. */
    OTHER
  }

  /**
   * A class or interface type, possibly parameterized.
   *
   * @param qualifiedName the erasure's qualified name, e.g. {@code java.util.List}
   * @param simpleName the class's simple name, for messages
   * @param rawType the erasure, for class literals
   * @param typeName the full type, type arguments included
   * @param arguments the type arguments, empty for a raw or non-generic type
   * @param kind record, ref, or other
   * @param accessible whether the stub's package can name it
   */
  record Declared(
      String qualifiedName,
      String simpleName,
      ClassName rawType,
      TypeName typeName,
      String display,
      List<JavaType> arguments,
      DeclaredKind kind,
      boolean accessible)
      implements JavaType {
    public Declared {
      Objects.requireNonNull(qualifiedName, "qualifiedName");
      arguments = List.copyOf(arguments);
      Objects.requireNonNull(kind, "kind");
    }

    /** True when this is {@code qualifiedName}, e.g. {@code java.util.List}. */
    public boolean is(String name) {
      return qualifiedName.equals(name);
    }
  }

  /**
   * A Java array type.
   *
   * @param component the element type (itself an array for {@code float[][]})
   */
  record ArrayOf(JavaType component, TypeName typeName, String display) implements JavaType {
    /** The number of dimensions: 2 for {@code float[][]}. */
    public int rank() {
      return component instanceof ArrayOf arrayOf ? 1 + arrayOf.rank() : 1;
    }

    /** The innermost component: {@code float} for {@code float[][]}. */
    public JavaType leaf() {
      return component instanceof ArrayOf arrayOf ? arrayOf.leaf() : component;
    }
  }

  /** A wildcard type argument, {@code ? extends T} or {@code ? super T} or {@code ?}. */
  record Wildcard(Optional<JavaType> bound, String display) implements JavaType {
    @Override
    public TypeName typeName() {
      throw new UnsupportedOperationException("a wildcard is never a value's type: " + display);
    }
  }

  /** A type the compiler could not resolve (yet): another processor may generate it. */
  record Unresolved(String name) implements JavaType {
    @Override
    public TypeName typeName() {
      throw new UnsupportedOperationException("unresolved type " + name);
    }

    @Override
    public String display() {
      return name;
    }
  }

  /** The return type {@code void}. */
  @SuppressWarnings("JavaLangClash") // nested: always named with its outer type
  record Void() implements JavaType {
    @Override
    public TypeName typeName() {
      return TypeName.VOID;
    }

    @Override
    public String display() {
      return "void";
    }
  }

  /** Anything else: type variables, intersection types. */
  record Other(TypeName typeName, String display) implements JavaType {}
}
