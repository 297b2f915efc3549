package dev.ireestubs.abi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which Java types stand for a type record: the one table behind the annotation processor's checks,
 * the interfaces the command line suggests, the array class {@code NdArray.fromBufferView} picks,
 * and the values the dynamic invoker returns, so that they all agree.
 *
 * <ul>
 *   <li>a scalar {@code i1 i8 i16 i32 i64 f32 f64} is {@code boolean byte short int long float
 *       double} (integers of every signedness, and {@code index}, by their width; {@link #scalar});
 *   <li>an ndarray is the typed array class that holds its element type ({@link #arrayClass}), or
 *       for a signless integer also the unsigned class of its width ({@link
 *       #arrayClassesAccepting}); an unknown element type accepts every class and {@code NdArray};
 *       a Java array of rank 1 to {@value #MAX_JAVA_ARRAY_RANK} of {@link #javaArrayComponent} is a
 *       copying convenience;
 *   <li>an {@code slist} or {@code stuple} whose elements all have one type record ({@link
 *       #uniformElement}) may be a {@code List} of that type; otherwise a positional record.
 * </ul>
 *
 * <p>Classes are named by their simple names in {@value #ARRAY_PACKAGE}, so that this table needs
 * none of them loaded (the processor runs it at compile time).
 */
public final class JavaMapping {

  /** The package of the typed array classes. */
  public static final String ARRAY_PACKAGE = "dev.ireestubs.ndarray";

  /** The base array class, of any element type (checked at run time). */
  public static final String ANY_ARRAY_CLASS = "NdArray";

  /**
   * Every typed array class, in the order messages list them: an ndarray of unknown element type
   * binds any of them.
   */
  public static final List<String> ARRAY_CLASSES =
      List.of(
          "FloatArray",
          "DoubleArray",
          "HalfArray",
          "BFloat16Array",
          "BoolArray",
          "ByteArray",
          "ShortArray",
          "IntArray",
          "LongArray",
          "UByteArray",
          "UShortArray",
          "UIntArray",
          "ULongArray");

  /** The highest rank of a Java array that stands for an ndarray (the typed arrays' factories). */
  public static final int MAX_JAVA_ARRAY_RANK = 4;

  private JavaMapping() {}

  /**
   * The Java primitive that stands for a scalar of {@code element}: {@code boolean} for {@code i1},
   * {@code float} and {@code double} for {@code f32} and {@code f64}, and for an 8-, 16-, 32- or
   * 64-bit integer of any signedness (or {@code index}) the primitive of that width. Empty for
   * every other element type (f16 and bf16 scalars are not VM values; odd widths have no
   * primitive).
   *
   * @param element the scalar's element type
   * @return the primitive class, or empty when Java has none of the same meaning
   */
  public static Optional<Class<?>> scalar(ElementType element) {
    Objects.requireNonNull(element, "element");
    if (element.equals(ElementType.I1)) {
      return Optional.of(boolean.class);
    }
    if (element.equals(ElementType.F32)) {
      return Optional.of(float.class);
    }
    if (element.equals(ElementType.F64)) {
      return Optional.of(double.class);
    }
    if (element.isInteger() && element.bits() == integerWidth(element.bits())) {
      return integer(element.bits());
    }
    return Optional.empty();
  }

  /**
   * The element type a Java primitive stands for as a scalar, the inverse of {@link #scalar} for
   * signless types: {@code boolean} is {@code i1}, {@code int} is {@code i32}, {@code float} is
   * {@code f32}. Empty for {@code char} and non-primitives.
   *
   * @param primitive a primitive class, such as {@code int.class}
   * @return the element type, or empty when the class stands for none
   */
  public static Optional<ElementType> element(Class<?> primitive) {
    Objects.requireNonNull(primitive, "primitive");
    if (primitive == boolean.class) {
      return Optional.of(ElementType.I1);
    } else if (primitive == byte.class) {
      return Optional.of(ElementType.I8);
    } else if (primitive == short.class) {
      return Optional.of(ElementType.I16);
    } else if (primitive == int.class) {
      return Optional.of(ElementType.I32);
    } else if (primitive == long.class) {
      return Optional.of(ElementType.I64);
    } else if (primitive == float.class) {
      return Optional.of(ElementType.F32);
    } else if (primitive == double.class) {
      return Optional.of(ElementType.F64);
    }
    return Optional.empty();
  }

  /**
   * The narrowest Java integer primitive that holds {@code bits} bits ({@code byte} up to 8, {@code
   * short} up to 16, {@code int} up to 32, {@code long} up to 64); empty above 64. The dynamic
   * invoker returns integer scalars of odd widths ({@code i3}) in it.
   *
   * @param bits the integer's width
   * @return the primitive class, or empty when no primitive is wide enough
   */
  public static Optional<Class<?>> integer(int bits) {
    return switch (integerWidth(bits)) {
      case 8 -> Optional.of(byte.class);
      case 16 -> Optional.of(short.class);
      case 32 -> Optional.of(int.class);
      case 64 -> Optional.of(long.class);
      default -> Optional.empty();
    };
  }

  private static int integerWidth(int bits) {
    if (bits <= 0) {
      return 0;
    }
    for (int width = 8; width <= 64; width *= 2) {
      if (bits <= width) {
        return width;
      }
    }
    return 0;
  }

  /**
   * The box of a primitive: {@code Integer} for {@code int}.
   *
   * @param primitive a primitive class
   * @return its wrapper class, or {@code primitive} itself when it is not primitive
   */
  public static Class<?> boxed(Class<?> primitive) {
    Objects.requireNonNull(primitive, "primitive");
    if (primitive == boolean.class) {
      return Boolean.class;
    } else if (primitive == byte.class) {
      return Byte.class;
    } else if (primitive == short.class) {
      return Short.class;
    } else if (primitive == int.class) {
      return Integer.class;
    } else if (primitive == long.class) {
      return Long.class;
    } else if (primitive == float.class) {
      return Float.class;
    } else if (primitive == double.class) {
      return Double.class;
    } else if (primitive == char.class) {
      return Character.class;
    }
    throw new IllegalArgumentException("not a primitive of a scalar: " + primitive);
  }

  /**
   * The simple name of the array class that holds {@code element} ({@code FloatArray} for {@code
   * f32}, {@code IntArray} for {@code i32} and {@code si32}, {@code UIntArray} for {@code ui32}):
   * the class {@code NdArray.fromBufferView} makes. Empty when no class does (complex, 8-bit
   * floats, odd widths, unknown).
   *
   * @param element an ndarray's element type
   * @return the class's simple name, or empty when no typed array holds the type
   */
  public static Optional<String> arrayClass(ElementType element) {
    Objects.requireNonNull(element, "element");
    if (element.equals(ElementType.F32)) {
      return Optional.of("FloatArray");
    } else if (element.equals(ElementType.F64)) {
      return Optional.of("DoubleArray");
    } else if (element.equals(ElementType.F16)) {
      return Optional.of("HalfArray");
    } else if (element.equals(ElementType.BF16)) {
      return Optional.of("BFloat16Array");
    } else if (element.equals(ElementType.I1)) {
      return Optional.of("BoolArray");
    }
    boolean unsigned = element.kind() == ElementType.Kind.UNSIGNED_INTEGER;
    if (element.kind() != ElementType.Kind.SIGNLESS_INTEGER
        && element.kind() != ElementType.Kind.SIGNED_INTEGER
        && !unsigned) {
      return Optional.empty();
    }
    return switch (element.bits()) {
      case 8 -> Optional.of(unsigned ? "UByteArray" : "ByteArray");
      case 16 -> Optional.of(unsigned ? "UShortArray" : "ShortArray");
      case 32 -> Optional.of(unsigned ? "UIntArray" : "IntArray");
      case 64 -> Optional.of(unsigned ? "ULongArray" : "LongArray");
      default -> Optional.empty();
    };
  }

  /**
   * The simple names of the array classes that may stand for an ndarray declared with element type
   * {@code declared}, preferred first: the class that holds it, and for a signless integer also the
   * unsigned class of its width (the {@code iree.abi} JSON drops signedness, and unsigned arrays
   * read signless buffer views). For an unknown element type ({@code !hal.buffer_view}), every
   * class ({@link #ARRAY_CLASSES}): the class checks the element type at run time. Empty when the
   * type is known but no class holds it. ({@link #ANY_ARRAY_CLASS} stands for any.)
   *
   * @param declared the element type the reflection declares
   * @return the simple names, preferred first; empty when none fits
   */
  public static List<String> arrayClassesAccepting(ElementType declared) {
    Objects.requireNonNull(declared, "declared");
    if (!declared.isKnown()) {
      return ARRAY_CLASSES;
    }
    Optional<String> holder = arrayClass(declared);
    if (holder.isEmpty()) {
      return List.of();
    }
    if (declared.kind() == ElementType.Kind.SIGNLESS_INTEGER) {
      return List.of(
          holder.get(), arrayClass(ElementType.unsignedInteger(declared.bits())).orElseThrow());
    }
    return List.of(holder.get());
  }

  /**
   * The primitive component of a Java array that may stand for an ndarray of {@code element}
   * ({@code float} for {@code f32}, so {@code float[][]} for a rank-2 one); empty where Java has no
   * primitive of the same meaning (unsigned integers, f16, bf16, and every other type).
   *
   * @param element an ndarray's element type
   * @return the primitive component class, or empty
   */
  public static Optional<Class<?>> javaArrayComponent(ElementType element) {
    Objects.requireNonNull(element, "element");
    if (element.kind() == ElementType.Kind.UNSIGNED_INTEGER
        || element.kind() == ElementType.Kind.INDEX) {
      return Optional.empty();
    }
    return scalar(element);
  }

  /**
   * The typed array class that copies Java arrays of {@code component}: {@code FloatArray} for
   * {@code float}; empty for other types (such as {@code char}).
   *
   * @param component a Java array's component class
   * @return the typed array class's simple name, or empty
   */
  public static Optional<String> arrayClassOfComponent(Class<?> component) {
    Objects.requireNonNull(component, "component");
    if (component == float.class) {
      return Optional.of("FloatArray");
    } else if (component == double.class) {
      return Optional.of("DoubleArray");
    } else if (component == boolean.class) {
      return Optional.of("BoolArray");
    } else if (component == byte.class) {
      return Optional.of("ByteArray");
    } else if (component == short.class) {
      return Optional.of("ShortArray");
    } else if (component == int.class) {
      return Optional.of("IntArray");
    } else if (component == long.class) {
      return Optional.of("LongArray");
    }
    return Optional.empty();
  }

  /**
   * True when an ndarray of {@code shape} may be a Java array: ranked, rank 1 to 4.
   *
   * @param shape the declared shape
   * @return true when a nested Java array can hold it
   */
  public static boolean javaArrayRank(Shape shape) {
    return shape.isRanked() && shape.rank() >= 1 && shape.rank() <= MAX_JAVA_ARRAY_RANK;
  }

  /**
   * The one type record every element of an {@code slist} or {@code stuple} has, when they all have
   * the same and there is at least one: the structure may then be a {@code List} of it.
   *
   * @param elements the structure's element types
   * @return the common type, or empty when they differ or there are none
   */
  public static Optional<AbiType> uniformElement(List<AbiType> elements) {
    if (elements.isEmpty()) {
      return Optional.empty();
    }
    AbiType first = elements.get(0);
    for (AbiType e : elements) {
      if (!e.equals(first)) {
        return Optional.empty();
      }
    }
    return Optional.of(first);
  }

  /**
   * The name of {@code value}'s Java type as a user writes it, for messages: {@code List}, {@code
   * Map}, {@code Set} or {@code Collection} for any collection of that kind (never a JDK
   * implementation class such as {@code ImmutableCollections$List12}), the array type as declared
   * ({@code float[][]}), the simple name of other classes ({@code Integer}, {@code FloatArray}, a
   * record's name), the nearest public supertype of a class a user cannot name (a non-public JDK
   * class, an anonymous class, a lambda); {@code null} for null.
   *
   * @param value any value, not null
   * @return the type's name for a message
   */
  public static String typeName(Object value) {
    return value == null ? "null" : typeName(value.getClass());
  }

  /**
   * {@link #typeName(Object)} after its article: {@code an Integer}, {@code a float[][]}.
   *
   * @param value any value, not null
   * @return the type's name with {@code a} or {@code an} before it
   */
  public static String aTypeName(Object value) {
    return value == null ? "null" : aTypeName(value.getClass());
  }

  /**
   * {@link #typeName(Class)} after its article: {@code an Integer}, {@code a List}.
   *
   * @param type any class
   * @return the type's name with {@code a} or {@code an} before it
   */
  public static String aTypeName(Class<?> type) {
    String name = typeName(type);
    return ("AEIOUaeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
  }

  /**
   * The name of {@code type} as a user writes it; see {@link #typeName(Object)}.
   *
   * @param type any class
   * @return the type's name for a message
   */
  public static String typeName(Class<?> type) {
    Objects.requireNonNull(type, "type");
    if (type.isArray()) {
      return typeName(type.getComponentType()) + "[]";
    }
    for (Class<?> kind : USER_KINDS) {
      if (kind.isAssignableFrom(type)) {
        return kind.getSimpleName();
      }
    }
    Class<?> named = type;
    while (!nameable(named)) {
      Class<?>[] interfaces = named.getInterfaces();
      Class<?> up = named.getSuperclass();
      named =
          up != null && up != Object.class
              ? up
              : interfaces.length > 0 ? interfaces[0] : Object.class;
    }
    return named.getSimpleName();
  }

  /** The collection kinds messages name instead of their implementation classes, in this order. */
  private static final List<Class<?>> USER_KINDS =
      List.of(
          java.util.List.class,
          java.util.Map.class,
          java.util.Set.class,
          java.util.Collection.class);

  /** True when a user can name {@code type}: it has a name and is not a hidden JDK class. */
  private static boolean nameable(Class<?> type) {
    if (type.isAnonymousClass()
        || type.isSynthetic()
        || type.isHidden()
        || type.getSimpleName().isEmpty()) {
      return false;
    }
    String name = type.getName();
    boolean jdk =
        name.startsWith("java.")
            || name.startsWith("javax.")
            || name.startsWith("jdk.")
            || name.startsWith("sun.")
            || name.startsWith("com.sun.");
    return !jdk || java.lang.reflect.Modifier.isPublic(type.getModifiers());
  }
}
