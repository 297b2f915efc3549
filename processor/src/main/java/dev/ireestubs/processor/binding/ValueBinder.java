package dev.ireestubs.processor.binding;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.JavaType;
import dev.ireestubs.processor.diagnostics.Location;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.JavaArrayBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.RefBinding;
import dev.ireestubs.processor.model.ScalarBinding;
import dev.ireestubs.processor.model.ValueBinding;
import java.util.List;
import java.util.Optional;

/**
 * Binds one value of one function: matches a Java type to a type record through {@link
 * JavaMapping}, reporting every mismatch on its element, and builds its {@link ValueBinding}.
 * Scalars, arrays, refs and lists here; records and maps in {@link StructureBinder}. Binding goes
 * on after a mismatch so one compile shows them all; a Java type that does not resolve binds
 * nothing and is not reported here (the declaration step says it, after the last round of
 * processing).
 */
final class ValueBinder {

  /** Where a Java type was written, and how to call it in a message ("the parameter"). */
  record Site(Location location, String noun) {
    /** A list's element type or a map's value type, which cannot be primitive. */
    boolean isTypeArgument() {
      return noun.equals(LIST_ELEMENT) || noun.equals(MAP_VALUE);
    }
  }

  static final String LIST_ELEMENT = "the list's element type";
  static final String MAP_VALUE = "the map's value type";

  private final BindSession session;
  private final Reporter report;
  private final Wording words;
  private final StructureBinder structures;

  ValueBinder(BindSession session, Wording words) {
    this.session = session;
    this.report = session.report();
    this.words = words;
    this.structures = new StructureBinder(session, words, this);
  }

  Wording words() {
    return words;
  }

  /**
   * Binds one value; null when it does not match (reported) or does not resolve (which the
   * declaration step reports).
   */
  ValueBinding bind(AbiType t, JavaType j, String path, Site site) {
    if (j instanceof JavaType.Unresolved) {
      return null;
    }
    if (t instanceof AbiType.Unsupported u) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + u.source()
              + " in the module, which no Java type binds to: "
              + u.reason()
              + "; describe the function with a supported signature in @IreeFunction(abi = ...)",
          site.location());
      return null;
    }
    if (t instanceof AbiType.Named) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + words.describe(t)
              + " in the module, which no Java type binds to: \"named\" is allowed only as a"
              + " root argument",
          site.location());
      return null;
    }
    if (t instanceof AbiType.Scalar scalar) {
      return bindScalar(scalar, j, path, site);
    }
    if (t instanceof AbiType.NdArray ndArray) {
      return new ArrayBinder(this, report, words).bind(ndArray, j, path, site);
    }
    if (t instanceof AbiType.Dict dict) {
      return structures.bindDict(dict, j, path, site);
    }
    if (t instanceof AbiType.Sequence sequence) {
      return structures.bindSequence(sequence, j, path, site);
    }
    if (t instanceof AbiType.HomogeneousList homogeneousList) {
      return bindHomogeneousList(homogeneousList, j, path, site);
    }
    // Any (JSON null), Unknown ("unknown"), Ref: opaque refs.
    return bindRef(t, j, path, site);
  }

  private ValueBinding bindScalar(AbiType.Scalar t, JavaType j, String path, Site site) {
    Optional<Class<?>> primitive = JavaMapping.scalar(t.element());
    if (primitive.isEmpty()) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + words.describe(t)
              + " in the module, which no Java type binds to: "
              + Wording.unsupportedScalar(t.element())
              + "; change the function to take a supported type",
          site.location());
      return null;
    }
    if (j instanceof JavaType.Primitive declaredPrimitive
        && declaredPrimitive.type() == primitive.get()) {
      return new ScalarBinding(t, j.typeName(), false, path);
    }
    if (j instanceof JavaType.Declared declared
        && declared.is(JavaMapping.boxed(primitive.get()).getName())) {
      return new ScalarBinding(t, j.typeName(), true, path);
    }
    return mismatch(t, j, path, site);
  }

  private ValueBinding bindHomogeneousList(
      AbiType.HomogeneousList t, JavaType j, String path, Site site) {
    Optional<JavaType> element = listElement(t, j, path, site);
    if (element == null) {
      return mismatch(t, j, path, site);
    }
    if (element.isEmpty()) {
      return null;
    }
    ValueBinding b =
        bind(t.element(), element.get(), path + "[*]", new Site(site.location(), LIST_ELEMENT));
    return b == null ? null : new ListBinding(t, j.typeName(), b, -1, path);
  }

  private ValueBinding bindRef(AbiType t, JavaType j, String path, Site site) {
    if (j instanceof JavaType.Declared d && d.kind() == JavaType.DeclaredKind.VM_REF) {
      if (!d.accessible()) {
        inaccessible(d.qualifiedName(), path, site);
        return null;
      }
      return new RefBinding(t, j.typeName(), path);
    }
    if (Wording.isUntypedRef(t)) {
      return bindUntypedRef(j, path, site);
    }
    return mismatch(t, j, path, site);
  }

  /**
   * A ref the module states nothing more about (a calling convention's {@code r}, V0's {@code O}):
   * besides {@code VmRef} and its subtypes, any n-d array binds, as a buffer view of any element
   * type and shape (the array class checks its element type at run time). Structures cannot be
   * checked against it, so records, lists and Java arrays do not bind.
   */
  private ValueBinding bindUntypedRef(JavaType j, String path, Site site) {
    if (j instanceof JavaType.Declared d) {
      Optional<ClassName> arrayClass = ArrayBinder.arrayClass(d, JavaMapping.ARRAY_CLASSES);
      if (arrayClass.isPresent()) {
        return new ArrayBinding(AbiType.NdArray.anyBufferView(), arrayClass.get(), path);
      }
      String structure =
          d.kind() == JavaType.DeclaredKind.RECORD
              ? "record " + d.display()
              : d.is("java.util.List") ? d.display() : null;
      if (structure != null) {
        report.error(
            Tag.SIGNATURE_MISMATCH,
            path
                + " is a ref of unknown type in the module ("
                + words.untypedWhy()
                + "), so the module carries no structure information to check "
                + structure
                + " against; change its type to VmList and build the list yourself, or to VmRef",
            site.location());
        return null;
      }
    }
    if (j instanceof JavaType.ArrayOf arrayOf) {
      String typed = ArrayBinder.arrayClassOf(arrayOf.leaf());
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is a ref of unknown type in the module ("
              + words.untypedWhy()
              + "), so a Java array, which needs a known element type and rank, cannot bind to"
              + " it, but "
              + site.noun()
              + " is "
              + j.display()
              + "; change its type to "
              + (typed == null ? "" : typed + " or ")
              + "NdArray",
          site.location());
      return null;
    }
    return mismatch(AbiType.Ref.any(), j, path, site);
  }

  /**
   * The element type of {@code List<T>}: null when {@code j} is not a {@code java.util.List}; empty
   * when it is raw or wildcarded (reported) or unresolved (the declaration step's to report).
   */
  Optional<JavaType> listElement(AbiType t, JavaType j, String path, Site site) {
    if (!(j instanceof JavaType.Declared declared) || !declared.is("java.util.List")) {
      return null;
    }
    List<JavaType> args = declared.arguments();
    if (args.size() != 1) {
      misfit(t, "a raw List; " + words.fix(t, path), path, site);
      return Optional.empty();
    }
    JavaType arg = args.get(0);
    if (arg instanceof JavaType.Unresolved) {
      return Optional.empty();
    }
    if (arg instanceof JavaType.Wildcard wildcard) {
      Optional<JavaType> bound = wildcard.bound();
      misfit(
          t,
          j.display()
              + ", a List of a wildcard; name the element type without a wildcard"
              + bound.map(b -> ", e.g. List<" + b.display() + ">").orElse(""),
          path,
          site);
      return Optional.empty();
    }
    return Optional.of(arg);
  }

  /**
   * Reports "PATH is T in the module, but SITE is {@code actualAndFix}": the Java type at {@code
   * site} has the right kind for {@code t} but not a usable form.
   */
  void misfit(AbiType t, String actualAndFix, String path, Site site) {
    report.error(
        Tag.SIGNATURE_MISMATCH,
        path
            + " is "
            + words.describe(t)
            + " in the module, but "
            + site.noun()
            + " is "
            + actualAndFix,
        site.location());
  }

  /** Reports that {@code j} does not bind to {@code t}, saying what does; always null. */
  ValueBinding mismatch(AbiType t, JavaType j, String path, Site site) {
    report.error(
        Tag.SIGNATURE_MISMATCH,
        path
            + " is "
            + words.describe(t)
            + " in the module, which binds to "
            + words.accepts(t)
            + ", but "
            + site.noun()
            + " is "
            + j.display()
            + "; "
            + (t instanceof AbiType.Scalar && site.isTypeArgument()
                ? "change it to " + words.suggestBoxed(t, Wording.lastSegment(path))
                : words.fix(t, path)),
        site.location());
    return null;
  }

  /** Reports that the stub cannot name {@code qualifiedName}. */
  void inaccessible(String qualifiedName, String path, Site site) {
    Declaration d = session.declaration();
    report.error(
        Tag.INACCESSIBLE_TYPE,
        path
            + ": "
            + qualifiedName
            + " is not accessible from package "
            + d.packageName()
            + ", where "
            + d.stubName().simpleName()
            + " is generated; make it (and its enclosing types) public or package-private in"
            + " that package",
        site.location());
  }

  /** A Java array type's binding, once {@link ArrayBinder} has checked it. */
  static JavaArrayBinding javaArray(AbiType.NdArray t, JavaType.ArrayOf j, String path) {
    return new JavaArrayBinding(
        t, (ArrayTypeName) j.typeName(), j.rank(), j.leaf().typeName(), path);
  }
}
