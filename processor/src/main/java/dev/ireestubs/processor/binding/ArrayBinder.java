package dev.ireestubs.processor.binding;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.processor.declaration.JavaType;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.ValueBinding;
import java.util.List;
import java.util.Optional;

/**
 * Binds an ndarray: to a typed array class of {@link JavaMapping#arrayClassesAccepting} (or {@code
 * NdArray}), or to a Java array of {@link JavaMapping#javaArrayComponent} and the array's rank.
 */
final class ArrayBinder {

  private final ValueBinder values;
  private final Reporter report;
  private final Wording words;

  ArrayBinder(ValueBinder values, Reporter report, Wording words) {
    this.values = values;
    this.report = report;
    this.words = words;
  }

  /**
   * The class {@code j} names when it is {@code NdArray} or one of {@code classes} (simple names in
   * the array package).
   */
  static Optional<ClassName> arrayClass(JavaType.Declared j, List<String> classes) {
    String name = j.qualifiedName();
    String prefix = JavaMapping.ARRAY_PACKAGE + ".";
    if (!name.startsWith(prefix)) {
      return Optional.empty();
    }
    String simple = name.substring(prefix.length());
    if (simple.equals(JavaMapping.ANY_ARRAY_CLASS) || classes.contains(simple)) {
      return Optional.of(ClassName.get(JavaMapping.ARRAY_PACKAGE, simple));
    }
    return Optional.empty();
  }

  /** The typed array class of a Java array's primitive component: {@code float} → FloatArray. */
  static String arrayClassOf(JavaType component) {
    return component instanceof JavaType.Primitive primitive
        ? JavaMapping.arrayClassOfComponent(primitive.type()).orElse(null)
        : null;
  }

  ValueBinding bind(AbiType.NdArray t, JavaType j, String path, ValueBinder.Site site) {
    ElementType e = t.element();
    // An unknown element type (!hal.buffer_view, ["ndarray", null, ...]) binds every array class,
    // as a calling convention's r does: only the shape is checked against the declaration, and
    // the class's fromBufferView checks the element type of a result.
    List<String> classes = JavaMapping.arrayClassesAccepting(e);
    if (e.isKnown() && classes.isEmpty()) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + words.describe(t)
              + " in the module, which no Java type binds to: no array class holds "
              + e
              + " elements (arrays hold f16, bf16, f32, f64, i1 and 8- to 64-bit integers)",
          site.location());
      return null;
    }
    if (j instanceof JavaType.Declared declared) {
      return arrayClass(declared, classes)
          .<ValueBinding>map(c -> new ArrayBinding(t, c, path))
          .orElseGet(() -> values.mismatch(t, j, path, site));
    }
    if (!(j instanceof JavaType.ArrayOf arrayOf)) {
      return values.mismatch(t, j, path, site);
    }
    return bindJavaArray(t, arrayOf, classes, path, site);
  }

  private ValueBinding bindJavaArray(
      AbiType.NdArray t,
      JavaType.ArrayOf j,
      List<String> classes,
      String path,
      ValueBinder.Site site) {
    ElementType e = t.element();
    JavaType component = j.leaf();
    if (component instanceof JavaType.Unresolved) {
      return null; // the declaration step's to report
    }
    Optional<Class<?>> expected = JavaMapping.javaArrayComponent(e);
    String typed = classes.isEmpty() ? JavaMapping.ANY_ARRAY_CLASS : classes.get(0);
    if (expected.isEmpty()) {
      return noJavaArray(t, j, classes, path, site);
    }
    if (!JavaMapping.javaArrayRank(t.shape())) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + words.describe(t)
              + " in the module, "
              + rankProblem(t)
              + ", so it binds to "
              + Messages.or(classes)
              + ", not to "
              + j.display()
              + "; change its type to "
              + typed,
          site.location());
      return null;
    }
    if (!(component instanceof JavaType.Primitive primitive)
        || primitive.type() != expected.get()) {
      return values.mismatch(t, j, path, site);
    }
    if (j.rank() != t.shape().rank()) {
      return wrongRank(t, j, expected.get(), path, site);
    }
    return ValueBinder.javaArray(t, j, path);
  }

  /** An ndarray whose element type no Java array holds: reported, null. */
  private ValueBinding noJavaArray(
      AbiType.NdArray t,
      JavaType.ArrayOf j,
      List<String> classes,
      String path,
      ValueBinder.Site site) {
    ElementType e = t.element();
    String sameElements = arrayClassOf(j.leaf());
    report.error(
        Tag.SIGNATURE_MISMATCH,
        path
            + " is "
            + words.describe(t)
            + " in the module; "
            + (e.isKnown()
                ? "Java arrays cannot hold "
                    + e
                    + " elements, so it binds to "
                    + Messages.or(classes)
                : "its element type is not known, so it binds to NdArray or a typed array"
                    + " (whose element type is checked at run time), not to a Java array")
            + ", but "
            + site.noun()
            + " is "
            + j.display()
            + "; change its type to "
            + (e.isKnown()
                ? classes.get(0)
                : (sameElements == null ? "" : sameElements + " or ") + "NdArray"),
        site.location());
    return null;
  }

  /** A Java array of another rank than the ndarray's: reported, null. */
  private ValueBinding wrongRank(
      AbiType.NdArray t,
      JavaType.ArrayOf j,
      Class<?> component,
      String path,
      ValueBinder.Site site) {
    int rank = t.shape().rank();
    report.error(
        Tag.SIGNATURE_MISMATCH,
        path
            + " is "
            + words.describe(t)
            + " in the module, of rank "
            + rank
            + ", which binds to "
            + words.accepts(t)
            + ", but "
            + site.noun()
            + " is "
            + j.display()
            + " (rank "
            + j.rank()
            + "); change its type to "
            + Wording.javaArrayText(component, rank),
        site.location());
    return null;
  }

  private static String rankProblem(AbiType.NdArray t) {
    if (!t.shape().isRanked()) {
      return "of unknown rank, but a Java array has a fixed rank";
    }
    if (t.shape().rank() == 0) {
      return "a rank-0 array, but Java arrays have rank 1 or more";
    }
    return "of rank "
        + t.shape().rank()
        + ", but Java arrays are converted at rank 1 to "
        + JavaMapping.MAX_JAVA_ARRAY_RANK;
  }
}
