package dev.ireestubs.processor.printing;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static javax.lang.model.element.Modifier.FINAL;
import static javax.lang.model.element.Modifier.PRIVATE;
import static javax.lang.model.element.Modifier.PUBLIC;
import static javax.lang.model.element.Modifier.STATIC;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.lang.model.element.Modifier;
import org.junit.jupiter.api.Test;

/**
 * {@link JavaSource} against JavaPoet: each class is built twice, as {@link JavaSource} values and
 * as the {@code TypeSpec} StubWriter built before (a {@code JavaFile} with {@code
 * skipJavaLangImports(true)}, {@code indent(" ")}, {@code alwaysQualify} on the top-level class),
 * every fragment from the same format and arguments, and the two printed files must be equal to the
 * byte.
 */
class JavaSourceTest {

  static final String PKG = "p";
  static final ClassName STUB = ClassName.get(PKG, "Iree_Model");
  static final ClassName LIST = ClassName.get("java.util", "List");
  static final ClassName MAP = ClassName.get("java.util", "Map");
  static final ClassName STRING = ClassName.get(String.class);
  static final ClassName OVERRIDE = ClassName.get(Override.class);
  static final ClassName SUPPRESS = ClassName.get(SuppressWarnings.class);
  static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
  static final ClassName ABI_TYPE = ClassName.get("dev.ireestubs.abi", "AbiType");
  static final ClassName NDARRAY = ABI_TYPE.nestedClass("NdArray");
  static final ClassName BACKEND = ClassName.get("dev.ireestubs.invoke", "ModuleBackend");
  static final ClassName FUNCTION = ClassName.get("dev.ireestubs.invoke", "BackendFunction");

  // ---- a fragment and a class, built both ways

  /** A fragment built from one format and its arguments twice: as Code and as CodeBlock. */
  record Frag(Code code, CodeBlock block) {
    static final Frag EMPTY = of("");

    static Frag of(String format, Object... args) {
      return new Frag(Code.of(format, ours(args)), CodeBlock.of(format, theirs(args)));
    }

    static Frag join(List<Frag> frags, String separator) {
      return new Frag(
          Code.join(frags.stream().map(Frag::code).toList(), separator),
          CodeBlock.join(frags.stream().map(Frag::block).toList(), separator));
    }

    private static Object[] ours(Object[] args) {
      return Arrays.stream(args).map(a -> a instanceof Frag f ? f.code() : a).toArray();
    }

    private static Object[] theirs(Object[] args) {
      return Arrays.stream(args).map(a -> a instanceof Frag f ? f.block() : a).toArray();
    }
  }

  /** Code.Builder and CodeBlock.Builder, called alike. */
  static final class FragBuilder {
    final Code.Builder code = Code.builder();
    final CodeBlock.Builder block = CodeBlock.builder();

    FragBuilder add(String format, Object... args) {
      code.add(format, Frag.ours(args));
      block.add(format, Frag.theirs(args));
      return this;
    }

    FragBuilder add(Frag frag) {
      code.add(frag.code());
      block.add(frag.block());
      return this;
    }

    FragBuilder addStatement(String format, Object... args) {
      code.addStatement(format, Frag.ours(args));
      block.addStatement(format, Frag.theirs(args));
      return this;
    }

    FragBuilder beginControlFlow(String format, Object... args) {
      code.beginControlFlow(format, Frag.ours(args));
      block.beginControlFlow(format, Frag.theirs(args));
      return this;
    }

    FragBuilder nextControlFlow(String format, Object... args) {
      code.nextControlFlow(format, Frag.ours(args));
      block.nextControlFlow(format, Frag.theirs(args));
      return this;
    }

    FragBuilder endControlFlow() {
      code.endControlFlow();
      block.endControlFlow();
      return this;
    }

    FragBuilder indent() {
      code.indent();
      block.indent();
      return this;
    }

    FragBuilder unindent() {
      code.unindent();
      block.unindent();
      return this;
    }

    Frag build() {
      return new Frag(code.build(), block.build());
    }
  }

  static FragBuilder frag() {
    return new FragBuilder();
  }

  /** An annotation; {@code members} in order. */
  record Ann(ClassName type, Map<String, Frag> members) {
    static Ann marker(ClassName type) {
      return new Ann(type, Map.of());
    }

    static Ann of(ClassName type, String name, Frag value) {
      Map<String, Frag> members = new LinkedHashMap<>();
      members.put(name, value);
      return new Ann(type, members);
    }

    Ann and(String name, Frag value) {
      Map<String, Frag> more = new LinkedHashMap<>(members);
      more.put(name, value);
      return new Ann(type, more);
    }
  }

  sealed interface Mem permits Fld, Mth, Cls {}

  record Fld(Frag doc, Set<Modifier> modifiers, TypeName type, String name, Frag init)
      implements Mem {}

  /** A method, or with a null {@code returns} a constructor. */
  record Mth(
      Frag doc,
      List<Ann> annotations,
      Set<Modifier> modifiers,
      TypeName returns,
      String name,
      List<JavaSource.Parameter> parameters,
      Frag body)
      implements Mem {}

  /**
   * A class; a holder is made by {@link JavaSource#holder} (and its annotations, modifiers
   * ignored).
   */
  record Cls(
      ClassName name,
      boolean holder,
      Frag doc,
      List<Ann> annotations,
      Set<Modifier> modifiers,
      TypeName superinterface,
      List<Mem> members,
      Set<String> alwaysQualify)
      implements Mem {

    Cls add(Mem... more) {
      members.addAll(List.of(more));
      return this;
    }
  }

  static Cls top(ClassName name, String... alwaysQualify) {
    return new Cls(
        name,
        false,
        Frag.EMPTY,
        new ArrayList<>(),
        Set.of(PUBLIC, FINAL),
        null,
        new ArrayList<>(),
        new LinkedHashSet<>(List.of(alwaysQualify)));
  }

  static Cls top(
      ClassName name, Frag doc, List<Ann> annotations, TypeName iface, String... alwaysQualify) {
    return new Cls(
        name,
        false,
        doc,
        annotations,
        Set.of(PUBLIC, FINAL),
        iface,
        new ArrayList<>(),
        new LinkedHashSet<>(List.of(alwaysQualify)));
  }

  static Cls holder(String name, Frag doc) {
    return new Cls(
        STUB.nestedClass(name), true, doc, List.of(), Set.of(), null, new ArrayList<>(), Set.of());
  }

  static Fld field(TypeName type, String name) {
    return new Fld(Frag.EMPTY, Set.of(PRIVATE, FINAL), type, name, Frag.EMPTY);
  }

  static Fld constant(TypeName type, String name, Frag init) {
    return new Fld(Frag.EMPTY, Set.of(STATIC, FINAL), type, name, init);
  }

  static Mth method(TypeName returns, String name, Frag body, JavaSource.Parameter... parameters) {
    return new Mth(Frag.EMPTY, List.of(), Set.of(PUBLIC), returns, name, List.of(parameters), body);
  }

  static JavaSource.Parameter param(TypeName type, String name) {
    return new JavaSource.Parameter(type, name);
  }

  // ---- the two printers

  static JavaSource.TypeDecl ours(Cls c) {
    List<JavaSource.Member> members = new ArrayList<>();
    for (Mem m : c.members()) {
      if (m instanceof Fld f) {
        members.add(
            new JavaSource.FieldDecl(
                f.doc().code(), f.modifiers(), f.type(), f.name(), f.init().code()));
      } else if (m instanceof Mth md) {
        members.add(
            new JavaSource.MethodDecl(
                md.doc().code(),
                md.annotations().stream().map(JavaSourceTest::ours).toList(),
                md.modifiers(),
                md.returns(),
                md.returns() == null ? "" : md.name(),
                md.parameters(),
                md.body().code()));
      } else {
        members.add(ours((Cls) m));
      }
    }
    return c.holder()
        ? JavaSource.holder(c.name(), c.doc().code(), members)
        : new JavaSource.TypeDecl(
            c.name(),
            c.doc().code(),
            c.annotations().stream().map(JavaSourceTest::ours).toList(),
            c.modifiers(),
            c.superinterface(),
            members,
            c.alwaysQualify());
  }

  static JavaSource.Annotation ours(Ann a) {
    Map<String, Code> members = new LinkedHashMap<>();
    a.members().forEach((k, v) -> members.put(k, v.code()));
    return new JavaSource.Annotation(a.type(), members);
  }

  /** As StubWriter built its TypeSpecs with JavaPoet. */
  static TypeSpec theirs(Cls c) {
    TypeSpec.Builder t = TypeSpec.classBuilder(c.name());
    if (c.holder()) {
      t.addModifiers(PRIVATE, STATIC, FINAL)
          .addJavadoc(c.doc().block())
          .addMethod(MethodSpec.constructorBuilder().addModifiers(PRIVATE).build());
    } else {
      t.addModifiers(c.modifiers().toArray(new Modifier[0]));
      if (c.superinterface() != null) {
        t.addSuperinterface(c.superinterface());
      }
      if (!c.alwaysQualify().isEmpty()) {
        t.alwaysQualify(c.alwaysQualify().toArray(new String[0]));
      }
      c.annotations().forEach(a -> t.addAnnotation(theirs(a)));
      t.addJavadoc(c.doc().block());
    }
    for (Mem m : c.members()) {
      if (m instanceof Fld f) {
        FieldSpec.Builder field =
            FieldSpec.builder(f.type(), f.name(), f.modifiers().toArray(new Modifier[0]))
                .addJavadoc(f.doc().block());
        if (!f.init().code().isEmpty()) {
          field.initializer(f.init().block());
        }
        t.addField(field.build());
      } else if (m instanceof Mth md) {
        MethodSpec.Builder method =
            md.returns() == null
                ? MethodSpec.constructorBuilder()
                : MethodSpec.methodBuilder(md.name()).returns(md.returns());
        method.addJavadoc(md.doc().block()).addModifiers(md.modifiers());
        md.annotations().forEach(a -> method.addAnnotation(theirs(a)));
        md.parameters().forEach(p -> method.addParameter(p.type(), p.name()));
        method.addCode(md.body().block());
        t.addMethod(method.build());
      } else {
        t.addType(theirs((Cls) m));
      }
    }
    return t.build();
  }

  static AnnotationSpec theirs(Ann a) {
    AnnotationSpec.Builder b = AnnotationSpec.builder(a.type());
    a.members().forEach((k, v) -> b.addMember(k, v.block()));
    return b.build();
  }

  static String javaPoet(Cls c) {
    return JavaFile.builder(c.name().packageName(), theirs(c))
        .skipJavaLangImports(true)
        .indent("  ")
        .build()
        .toString();
  }

  /** Prints {@code c} both ways, asserts they are equal, and returns the text. */
  static String assertPrintsAsJavaPoet(Cls c) {
    String expected = javaPoet(c);
    assertThat(JavaSource.print(ours(c))).isEqualTo(expected);
    return expected;
  }

  // ---- imports

  @Test
  void firstOfTwoSimpleNamesIsImportedTheOtherWrittenInFull() {
    ClassName ax = ClassName.get("a", "X");
    ClassName bx = ClassName.get("b", "X");
    Cls c = top(STUB);
    // Inserted first, printed after the field: the field's a.X is met first.
    c.add(method(bx, "m", frag().addStatement("return new $T()", bx).build(), param(ax, "x")));
    c.add(field(ax, "f"));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).contains("import a.X;\n");
    assertThat(out).doesNotContain("import b.X;");
    assertThat(out).contains("public b.X m(X x) {\n    return new b.X();\n  }");
  }

  @Test
  void aSamePackageClassKeepsItsSimpleName() {
    ClassName qx = ClassName.get("q", "X");
    ClassName px = ClassName.get(PKG, "X");
    ClassName qy = ClassName.get("q", "Y");
    Cls c = top(STUB);
    c.add(field(qx, "a"), field(px, "b"), field(qy, "c"), field(px.nestedClass("In"), "d"));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).doesNotContain("import q.X;");
    assertThat(out).contains("import q.Y;");
    assertThat(out).contains("private final q.X a;");
    assertThat(out).contains("private final X b;");
    assertThat(out).contains("private final X.In d;");
  }

  @Test
  void javaLangTypesAreNotImported() {
    ClassName evilString = ClassName.get("evil", "String");
    ClassName state = ClassName.get(Thread.State.class);
    Cls c = top(STUB);
    c.add(
        field(STRING, "s"),
        field(ClassName.get(Integer.class), "i"),
        field(state, "t"),
        field(evilString, "e"),
        field(ClassName.get("java.lang.annotation", "Retention"), "r"));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).doesNotContain("import java.lang.String;");
    assertThat(out).doesNotContain("import java.lang.Thread;");
    assertThat(out).contains("import java.lang.annotation.Retention;");
    assertThat(out).contains("private final Thread.State t;");
    assertThat(out).contains("private final evil.String e;");
  }

  @Test
  void aNestedClassImportsItsTopLevelClass() {
    Cls c = top(STUB);
    c.add(field(NDARRAY, "a"), field(ABI_TYPE.nestedClass("Scalar"), "b"), field(ABI_TYPE, "c"));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).contains("import dev.ireestubs.abi.AbiType;\n");
    assertThat(out).contains("private final AbiType.NdArray a;");

    // Another AbiType met first: the nested class is written in full.
    Cls clash = top(STUB);
    clash.add(field(ClassName.get("other", "AbiType"), "a"), field(NDARRAY, "b"));
    out = assertPrintsAsJavaPoet(clash);
    assertThat(out).contains("private final dev.ireestubs.abi.AbiType.NdArray b;");

    // Another NdArray (top-level) and AbiType.NdArray: different simple names to import.
    Cls both = top(STUB);
    both.add(field(ClassName.get("x", "NdArray"), "a"), field(NDARRAY, "b"));
    out = assertPrintsAsJavaPoet(both);
    assertThat(out).contains("import x.NdArray;");
    assertThat(out).contains("private final AbiType.NdArray b;");
  }

  @Test
  void alwaysQualifiedNamesAreWrittenInFull() {
    ClassName vmRef = ClassName.get("dev.ireestubs.vm", "VmRef");
    Cls c = top(STUB, "VmRef", "NdArray", "String");
    c.add(field(vmRef, "a"), field(NDARRAY, "b"), field(STRING, "c"), field(FUNCTION, "d"));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).contains("private final dev.ireestubs.vm.VmRef a;");
    assertThat(out).contains("private final dev.ireestubs.abi.AbiType.NdArray b;");
    assertThat(out).contains("private final java.lang.String c;");
    assertThat(out).contains("private final BackendFunction d;");

    // The nested class's own name is qualified; once its top-level class is imported, it is
    // written from there.
    Cls viaTop = top(STUB, "NdArray");
    viaTop.add(field(ABI_TYPE, "a"), field(NDARRAY, "b"));
    out = assertPrintsAsJavaPoet(viaTop);
    assertThat(out).contains("private final AbiType.NdArray b;");

    // Qualifying a top-level name does not qualify its nested classes (StubScope adds them).
    Cls nested = top(STUB, "AbiType");
    nested.add(field(NDARRAY, "a"));
    assertPrintsAsJavaPoet(nested);
  }

  @Test
  void aTypeNamedLikeAHolderIsWrittenInFull() {
    ClassName userSignatures = ClassName.get("user", "Signatures");
    ClassName userF0 = ClassName.get("user", "F0", "In");
    Cls c = top(STUB);
    c.add(
        method(
            TypeName.VOID,
            "m",
            frag()
                .addStatement("$T a = $T.A", userSignatures, STUB.nestedClass("Signatures"))
                .addStatement("$T b = $T.B", userF0, STUB.nestedClass("F0"))
                .build(),
            param(userSignatures, "s")));
    c.add(
        holder("Signatures", Frag.of("Constants.\n"))
            .add(constant(userSignatures, "A", Frag.of("null"))));
    c.add(holder("F0", Frag.EMPTY).add(constant(TypeName.INT, "B", Frag.of("0"))));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).doesNotContain("import user");
    assertThat(out).contains("user.Signatures a = Signatures.A;");
    assertThat(out).contains("user.F0.In b = F0.B;");
    assertThat(out).contains("static final user.Signatures A = null;");
  }

  @Test
  void theFileNameAndItsNestedClasses() {
    ClassName otherStub = ClassName.get("other", STUB.simpleName());
    Cls c = top(STUB);
    c.add(
        method(
            STUB,
            "self",
            frag()
                .addStatement("$T x = null", otherStub)
                .addStatement("return new $T($T.C)", STUB, STUB.nestedClass("H"))
                .build()));
    c.add(holder("H", Frag.EMPTY).add(constant(STUB, "C", Frag.of("null"))));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).contains("other.Iree_Model x = null;");
    assertThat(out).contains("return new Iree_Model(H.C);");
  }

  @Test
  void headerNamesDoNotSeeNestedClasses() {
    // A known difference, which a stub cannot meet (StubScope keeps holder names off every type
    // name the stub writes): JavaPoet resolves the names in the class's Javadoc, annotations and
    // interfaces without its nested classes (the scope of a member class is the class's body), so
    // it imports u.H0 for "implements H0"; JavaSource resolves every name of the file alike and
    // writes it in full there. Both compile to the same class.
    ClassName userH0 = ClassName.get("user", "H0");
    Cls c = top(STUB, Frag.of("See {@link $T}.\n", STUB.nestedClass("H0")), List.of(), userH0);
    c.add(holder("H0", Frag.EMPTY));
    c.add(field(userH0, "f"));
    String ours = JavaSource.print(ours(c));
    String theirs = javaPoet(c);
    assertThat(ours).contains(" * See {@link H0}.\n");
    assertThat(theirs).contains(" * See {@link Iree_Model.H0}.\n");
    assertThat(ours).contains("public final class Iree_Model implements user.H0 {\n");
    assertThat(theirs).contains("import user.H0;\n");
    assertThat(theirs).contains("public final class Iree_Model implements H0 {\n");
    // In the body, both write the user's type in full.
    assertThat(ours).contains("  private final user.H0 f;\n");
    assertThat(theirs).contains("  private final user.H0 f;\n");

    // Without the clash, the same.
    Cls plain = top(STUB, Frag.of("See {@link $T}.\n", STUB.nestedClass("H0")), List.of(), userH0);
    plain.add(holder("H1", Frag.EMPTY));
    assertPrintsAsJavaPoet(plain);
  }

  @Test
  void aTypeOfTheDefaultPackageIsWrittenByItsName() {
    ClassName top = ClassName.get("", "Top");
    Cls c = top(STUB);
    c.add(field(top, "t"), field(ClassName.get("", "Top", "In"), "i"), field(LIST, "l"));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).contains("private final Top t;");
    assertThat(out).contains("private final Top.In i;");

    // A file of the default package: no package line.
    Cls inDefault = top(ClassName.get("", "Iree_Default"));
    inDefault.add(field(top, "t"), field(LIST, "l"), field(ClassName.get("x", "Top"), "x"));
    out = assertPrintsAsJavaPoet(inDefault);
    assertThat(out).startsWith("import java.util.List;\n\npublic final class Iree_Default {");
    assertThat(out).contains("private final x.Top x;");
  }

  @Test
  void noImports() {
    Cls c = top(STUB);
    c.add(field(TypeName.INT, "i"), field(STRING, "s"));
    assertThat(assertPrintsAsJavaPoet(c))
        .startsWith("package p;\n\npublic final class Iree_Model {\n");
    assertPrintsAsJavaPoet(top(STUB));
  }

  @Test
  void importsAreSortedByName() {
    Cls c = top(STUB);
    for (String name : List.of("Zeta", "alpha", "Beta", "beta2")) {
      c.add(field(ClassName.get("z.y", name), name.toLowerCase() + "F"));
    }
    c.add(field(ClassName.get("a", "Zed"), "zed"), field(ClassName.get("a.b", "A"), "ab"));
    assertPrintsAsJavaPoet(c);
  }

  // ---- types

  @Test
  void parameterizedTypesWildcardsAndArrays() {
    TypeName listOfExtendsNumber =
        ParameterizedTypeName.get(LIST, WildcardTypeName.subtypeOf(Number.class));
    TypeName mapArray =
        ArrayTypeName.of(ParameterizedTypeName.get(MAP, STRING, listOfExtendsNumber));
    TypeName superInt =
        ParameterizedTypeName.get(LIST, WildcardTypeName.supertypeOf(Integer.class));
    TypeName anyList = ParameterizedTypeName.get(LIST, WildcardTypeName.subtypeOf(Object.class));
    TypeName entry =
        ParameterizedTypeName.get(
            MAP.nestedClass("Entry"), STRING, ArrayTypeName.of(TypeName.FLOAT));
    TypeName innerOfGeneric =
        ParameterizedTypeName.get(ClassName.get("g", "Outer"), STRING)
            .nestedClass("Inner", List.of(ClassName.get("g", "Arg")));
    TypeName deep = ArrayTypeName.of(ArrayTypeName.of(ArrayTypeName.of(TypeName.DOUBLE)));
    Cls c = top(STUB);
    c.add(
        field(mapArray, "a"),
        field(superInt, "b"),
        field(anyList, "c"),
        field(entry, "d"),
        field(innerOfGeneric, "e"),
        field(deep, "f"),
        field(ArrayTypeName.of(NDARRAY), "g"),
        method(
            mapArray,
            "m",
            frag().addStatement("return new $T[$L]", MAP, 1).build(),
            param(superInt, "x"),
            param(TypeName.LONG.box(), "y")));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out).contains("private final Map<String, List<? extends Number>>[] a;");
    assertThat(out).contains("private final List<?> c;");
    assertThat(out).contains("private final Outer<String>.Inner<Arg> e;");
  }

  // ---- members

  @Test
  void membersArePrintedStaticFieldsFieldsConstructorsMethodsClasses() {
    Cls c = top(STUB);
    c.add(
        holder("H1", Frag.of("First.\n")),
        method(TypeName.VOID, "m2", Frag.EMPTY),
        new Mth(
            Frag.EMPTY, List.of(), Set.of(PUBLIC), null, "", List.of(), Frag.of("this.f = 1;\n")),
        field(TypeName.INT, "f"),
        new Fld(Frag.EMPTY, Set.of(PRIVATE, STATIC, FINAL), TypeName.INT, "S", Frag.of("2")),
        method(TypeName.VOID, "m1", Frag.of("m2();\n")),
        holder("H0", Frag.EMPTY),
        new Fld(Frag.EMPTY, Set.of(STATIC), TypeName.INT, "T", Frag.EMPTY),
        field(TypeName.INT, "g"));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out)
        .containsMatch(
            "(?s)S = 2;.*static int T;.*int f;.*int g;.*Iree_Model\\(\\).*m2\\(\\).*m1\\(\\).*class"
                + " H1.*class H0");
  }

  @Test
  void holdersWithMultiLineInitializers() {
    Frag list =
        frag()
            .add("$T.of(\n", LIST)
            .indent()
            .add("$S,\n", "a")
            .add("$L", Frag.of("$T.of($S)", LIST, "b\nc"))
            .unindent()
            .add(")")
            .build();
    Frag nested =
        Frag.of(
            "new $T(\n$>$L,\n$L$<)",
            NDARRAY,
            Frag.of("$T.F32", ClassName.get("dev.ireestubs.abi", "ElementType")),
            list);
    Cls c = top(STUB);
    c.add(
        holder(
                "Signatures",
                Frag.of("The signatures of $L functions as code.\n\nSecond paragraph.\n", 3))
            .add(
                constant(ParameterizedTypeName.get(LIST, STRING), "L", list),
                constant(NDARRAY, "N", nested),
                constant(STRING, "S", Frag.of("$S", "x")),
                method(
                    TypeName.VOID,
                    "bind",
                    frag().addStatement("f($N)", "L").build(),
                    param(BACKEND, "backend"))));
    c.add(holder("Empty", Frag.EMPTY));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out)
        .contains("  private static final class Empty {\n    private Empty() {\n    }\n  }\n");
    assertThat(out)
        .contains(
            "  /**\n"
                + "   * The signatures of 3 functions as code.\n"
                + "   *\n"
                + "   * Second paragraph.\n"
                + "   */\n");
  }

  @Test
  void constructorAndFieldJavadoc() {
    Cls c = top(STUB);
    c.add(
        new Fld(
            Frag.of("The bound functions.\n"),
            Set.of(PRIVATE, FINAL),
            ArrayTypeName.of(FUNCTION),
            "functions",
            Frag.EMPTY),
        new Mth(
            Frag.of(
                "Binds every function of {@link $T} in {@code backend}.\n\n"
                    + "@throws dev.ireestubs.invoke.IreeFunctionNotFoundException when the module"
                    + " lacks a function\n",
                ClassName.get("user", "Model")),
            List.of(),
            Set.of(PUBLIC),
            null,
            "",
            List.of(param(BACKEND, "backend")),
            frag()
                .addStatement(
                    "$T.requireNonNull(backend, $S)",
                    ClassName.get("java.util", "Objects"),
                    "backend")
                .addStatement("this.functions = new $T[$L]", FUNCTION, 2)
                .build()));
    assertPrintsAsJavaPoet(c);
  }

  @Test
  void javadocs() {
    Cls c =
        top(
            STUB,
            Frag.of(
                "Calls the functions of IREE module {@code $L} through a {@link $T}, as {@link $T}"
                    + " declares them.\n\n"
                    + "<p>Second paragraph,\n"
                    + "over two lines.\n\n\n"
                    + "<p>After two blank lines.",
                "m",
                BACKEND,
                ClassName.get("user", "Model")),
            List.of(),
            ClassName.get("user", "Model"));
    c.add(
        new Mth(
            Frag.of("Calls {@code m.f}: {@code ($T) -> $S}.\n", LIST, "x\ny"),
            List.of(Ann.marker(OVERRIDE)),
            Set.of(PUBLIC),
            TypeName.VOID,
            "f",
            List.of(),
            Frag.EMPTY),
        new Mth(
            Frag.of("\n\nLeading blank lines.\n"),
            List.of(),
            Set.of(),
            TypeName.INT,
            "g",
            List.of(),
            Frag.of("return 1;")));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out)
        .contains(
            " *\n"
                + " * <p>Second paragraph,\n"
                + " * over two lines.\n"
                + " *\n"
                + " *\n"
                + " * <p>After two blank lines.\n"
                + " */\n");
  }

  @Test
  void annotations() {
    Ann generated =
        Ann.of(GENERATED, "value", Frag.of("$S", "dev.ireestubs.processor.IreeStubsProcessor"))
            .and("comments", Frag.of("$S", "reflection: a.vmfb, b.json"));
    Cls c = top(STUB, Frag.of("Doc.\n"), List.of(generated), ClassName.get("user", "Model"));
    c.add(
        new Mth(
            Frag.EMPTY,
            List.of(Ann.marker(OVERRIDE), Ann.of(SUPPRESS, "value", Frag.of("$S", "unchecked"))),
            Set.of(PUBLIC),
            LIST,
            "f",
            List.of(),
            Frag.of("return null;\n")),
        new Mth(
            Frag.EMPTY,
            List.of(
                Ann.of(SUPPRESS, "value", Frag.of("{$S, $S}", "unchecked", "rawtypes")),
                Ann.of(ClassName.get("x", "Tag"), "name", Frag.of("$S", "n"))),
            Set.of(STATIC),
            TypeName.VOID,
            "g",
            List.of(),
            Frag.EMPTY));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out)
        .contains(
            "@Generated(\n"
                + "    value = \"dev.ireestubs.processor.IreeStubsProcessor\",\n"
                + "    comments = \"reflection: a.vmfb, b.json\"\n"
                + ")\n"
                + "public final class Iree_Model implements Model {\n");
    assertThat(out)
        .contains("  @Override\n  @SuppressWarnings(\"unchecked\")\n  public List f() {\n");
  }

  @Test
  void annotationValuesOverSeveralLines() {
    // A comment with a line break: its literal continues on the next line, indented from the
    // annotation's members.
    Ann generated =
        Ann.of(GENERATED, "value", Frag.of("$S", "x"))
            .and("comments", Frag.of("$S", "reflection:\na.vmfb"));
    Cls c = top(STUB, Frag.EMPTY, List.of(generated), null);
    c.add(
        new Mth(
            Frag.EMPTY,
            List.of(Ann.of(SUPPRESS, "value", Frag.of("$S", "a\nb"))),
            Set.of(),
            TypeName.VOID,
            "f",
            List.of(),
            Frag.EMPTY));
    assertPrintsAsJavaPoet(c);
  }

  // ---- code

  @Test
  void statementsOverSeveralLines() {
    Frag args =
        Frag.join(List.of(Frag.of("$S", "a"), Frag.of("$T.B", NDARRAY), Frag.of("x")), ",\n");
    Frag body =
        frag()
            .addStatement("$T x = f(\n$L)", NDARRAY, args)
            .addStatement(
                "return g(x,\n$L,\n$L)", Frag.of("h(\n1,\n2)"), Frag.of("$S", "one\ntwo\nthree"))
            .build();
    Cls c = top(STUB);
    c.add(method(NDARRAY, "m", body));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out)
        .contains(
            "    AbiType.NdArray x = f(\n"
                + "        \"a\",\n"
                + "        AbiType.NdArray.B,\n"
                + "        x);\n");
  }

  @Test
  void controlFlow() {
    Frag body =
        frag()
            .addStatement(
                "$T.requireNonNull(backend, $S)", ClassName.get("java.util", "Objects"), "backend")
            .beginControlFlow("try")
            .addStatement("this.f0 = $T.bind(backend,\n$S)", FUNCTION, "m.f0")
            .beginControlFlow("if (f0 == null)")
            .addStatement("throw new $T()", ClassName.get(IllegalStateException.class))
            .endControlFlow()
            .nextControlFlow("catch ($T e)", ClassName.get(LinkageError.class))
            .addStatement(
                "throw $T.incompatibleStub($T.class, e)",
                ClassName.get("dev.ireestubs.internal", "FunctionBinder"),
                STUB)
            .nextControlFlow("finally")
            .add("// done\n")
            .endControlFlow()
            .build();
    Cls c = top(STUB);
    c.add(
        new Mth(
            Frag.EMPTY,
            List.of(),
            Set.of(PUBLIC),
            null,
            "",
            List.of(param(BACKEND, "backend")),
            body));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out)
        .contains(
            "    } catch (LinkageError e) {\n"
                + "      throw FunctionBinder.incompatibleStub(Iree_Model.class, e);\n"
                + "    } finally {\n");
  }

  @Test
  void stringLiterals() {
    List<String> strings =
        List.of(
            "plain",
            "",
            "with \"quotes\" and 'apostrophes'",
            "back\\slash \\n not a newline",
            "tab\there",
            "line\nbreak",
            "two\n\nbreaks\n",
            "\n",
            "control \0 \u0001 \u001b \u007f \u0085 \b \f \r",
            "unicode é 中 \uD83D\uDE00 \u00a0",
            "dollar $ and $S",
            "*/ /* @param {@code}");
    FragBuilder body = frag();
    FragBuilder init = frag();
    for (int i = 0; i < strings.size(); i++) {
      body.addStatement("s($S)", strings.get(i));
      init.add(i == 0 ? "$S" : " + $S", strings.get(i));
    }
    body.addStatement("s($S, $S)", null, "after\nnull");
    Cls c = top(STUB);
    c.add(
        method(TypeName.VOID, "m", body.build()),
        new Fld(Frag.EMPTY, Set.of(STATIC, FINAL), STRING, "ALL", init.build()));
    String out = assertPrintsAsJavaPoet(c);
    // The literal's next line is a statement's continuation line: four levels in, plus "+ ".
    assertThat(out).contains("    s(\"line\\n\"\n            + \"break\");\n");
    assertThat(out).contains("    s(\"tab\\there\");\n");
  }

  @Test
  void otherLineTerminatorsAreNotLineBreaks() {
    // The one known difference: JavaPoet breaks lines at any \R, U+2028 and U+2029 included,
    // also inside a string literal, which then no longer compiles; JavaSource breaks lines at \n
    // only and writes those characters as they are (legal in a literal: not line terminators).
    Cls c = top(STUB);
    c.add(method(TypeName.VOID, "m", frag().addStatement("s($S)", "a\u2028b\u2029c").build()));
    String ours = JavaSource.print(ours(c));
    assertThat(ours).contains("    s(\"a\u2028b\u2029c\");\n");
    assertThat(javaPoet(c)).contains("    s(\"a\n        b\n        c\");\n");
    assertThat(ours.replace("\u2028", "\n        ").replace("\u2029", "\n        "))
        .isEqualTo(javaPoet(c));

    // Likewise a carriage return in code text (not a literal, where it is escaped): JavaPoet
    // writes a line break for it. Stubs write none (javadocText turns control characters to
    // spaces, names are Java names).
    Cls cr = top(STUB);
    cr.add(method(TypeName.VOID, "m", Frag.of("a();\r\nb();\rc();\n")));
    assertThat(JavaSource.print(ours(cr))).contains("    a();\r\n    b();\rc();\n");
    assertThat(javaPoet(cr)).contains("    a();\n    b();\n    c();\n");
  }

  // ---- wrapping of parameter lists at column 100

  @Test
  void longParameterListsWrap() {
    ClassName longType =
        ClassName.get("dev.ireestubs.ndarray", "FloatArrayWithAVeryLongNameIndeed");
    List<JavaSource.Parameter> many = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      many.add(
          param(i % 3 == 0 ? longType : ParameterizedTypeName.get(LIST, STRING), "parameter" + i));
    }
    Cls c = top(STUB);
    c.add(
        method(TypeName.VOID, "several", Frag.EMPTY, many.toArray(new JavaSource.Parameter[0])),
        // The first parameter does not fit after '(': the line breaks right after it.
        method(
            longType,
            "aMethodWhoseNameIsLongSoItsFirstParameterCannotFit",
            Frag.of("return null;\n"),
            param(longType, "firstParameterWithALongName"),
            param(TypeName.INT, "i")),
        // "  public void " + name + "(int abcdefghijkl) {": exactly at the limit, and one past it.
        method(
            TypeName.VOID, "m" + "x".repeat(65), Frag.EMPTY, param(TypeName.INT, "abcdefghijkl")),
        method(
            TypeName.VOID, "n" + "x".repeat(66), Frag.EMPTY, param(TypeName.INT, "abcdefghijkl")),
        new Mth(
            Frag.EMPTY,
            List.of(),
            Set.of(PUBLIC),
            null,
            "",
            many.subList(0, 7),
            Frag.of("this.x = 1;\n")),
        holder("H", Frag.EMPTY)
            .add(
                new Mth(
                    Frag.EMPTY,
                    List.of(Ann.marker(OVERRIDE)),
                    Set.of(STATIC),
                    longType,
                    "call",
                    many.subList(2, 9),
                    Frag.of("return null;\n"))));
    String out = assertPrintsAsJavaPoet(c);
    assertThat(out)
        .contains(
            "(\n      FloatArrayWithAVeryLongNameIndeed firstParameterWithALongName, int i) {\n");
    assertThat(out).contains("  public void m" + "x".repeat(65) + "(int abcdefghijkl) {\n");
    assertThat(out).contains("  public void n" + "x".repeat(66) + "(\n      int abcdefghijkl) {\n");
    for (String line : out.split("\n")) {
      assertThat(line.length()).isAtMost(100);
    }
  }

  @Test
  void wrappingAroundEveryColumn() {
    // A parameter list ending near column 100 in every position.
    Cls c = top(STUB);
    for (int n = 40; n < 110; n++) {
      c.add(
          method(
              TypeName.VOID,
              "m" + n,
              Frag.EMPTY,
              param(ClassName.get("a", "T" + "x".repeat(n % 37)), "p" + "y".repeat(n)),
              param(TypeName.INT, "q" + "z".repeat(n % 11))));
    }
    assertPrintsAsJavaPoet(c);
  }

  // ---- random classes

  @Test
  void randomClassesPrintAsJavaPoet() {
    Random random = new Random(20_261_126L);
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (int i = 0; i < 400; i++) {
      Cls c = new RandomClass(random).build();
      String expected = javaPoet(c);
      String actual = JavaSource.print(ours(c));
      if (!actual.equals(expected)) {
        assertThat(actual).isEqualTo(expected); // the diff
      }
      count(
          seen,
          "a wrapped parameter list",
          expected.matches("(?s).*[(,]\n {6,8}\\S[^\n]*\\) \\{\n.*"));
      count(
          seen, "a wrap right after (", expected.matches("(?s).*\\(\n {6,8}\\S[^\n]*\\) \\{\n.*"));
      count(seen, "a clash written in full", expected.matches("(?s).*[ (<]b\\.X[ >,.].*"));
      count(
          seen,
          "a same-package name beside an import",
          expected.matches("(?s).*[ (<]q\\.Y[ >,.].*"));
      count(seen, "a holder-named type in full", expected.matches("(?s).*[ (<]u\\.H0[ >,.].*"));
      count(seen, "a continued literal", expected.contains("+ \""));
      count(seen, "a continued statement", expected.matches("(?s).*\n {8,}\\S.*"));
      count(seen, "a try", expected.contains("} finally {"));
      count(
          seen, "an always-qualified name", expected.contains("dev.ireestubs.abi.AbiType.NdArray"));
      count(seen, "a default-package type", expected.contains(" Top"));
    }
    // The classes met every case above, more than once.
    assertThat(seen.keySet()).hasSize(10);
    seen.forEach((what, n) -> assertWithMessage(what).that(n).isAtLeast(5));
  }

  private static void count(Map<String, Integer> seen, String what, boolean met) {
    if (met) {
      seen.merge(what, 1, Integer::sum);
    }
  }

  /** A random class: members of random kinds and order, types from a pool of clashing names. */
  static final class RandomClass {
    static final List<ClassName> POOL =
        List.of(
            ClassName.get("a", "X"),
            ClassName.get("b", "X"),
            ClassName.get(PKG, "X"),
            ClassName.get(PKG, "Y"),
            ClassName.get("q", "Y"),
            ClassName.get("c", "Outer", "Inner"),
            ClassName.get("d", "Outer"),
            ClassName.get("e", "Inner"),
            STRING,
            ClassName.get(Integer.class),
            ClassName.get("evil", "String"),
            LIST,
            MAP,
            MAP.nestedClass("Entry"),
            ClassName.get("", "Top"),
            ClassName.get("u", "H0"),
            ClassName.get("u", "H1", "Deep"),
            STUB,
            STUB.nestedClass("H0"),
            STUB.nestedClass("H1"),
            ClassName.get("other", STUB.simpleName()),
            NDARRAY,
            ABI_TYPE,
            ClassName.get("x", "NdArray"),
            BACKEND,
            FUNCTION,
            ClassName.get("dev.ireestubs.ndarray", "FloatArrayWithAVeryLongNameIndeed"));
    static final List<String> QUALIFIABLE =
        List.of("X", "NdArray", "Inner", "Entry", "String", "Outer", "Y");
    static final List<String> STRINGS =
        List.of("s", "", "a\"b", "c\\d", "t\tt", "n\nn", "\n", "end\n", "\0\u001f", "$", "é中");
    static final List<String> WORDS =
        List.of("x", "f(y)", "a + b", "return", "new int[0]", "// c", "1");

    final Random random;
    final Set<String> names = new LinkedHashSet<>();
    boolean header;

    RandomClass(Random random) {
      this.random = random;
    }

    Cls build() {
      String[] qualify =
          QUALIFIABLE.stream().filter(q -> random.nextInt(5) == 0).toArray(String[]::new);
      // The class's own Javadoc, annotations and interface do not name a type that shares a
      // simple name with a holder (as in a stub: StubScope keeps holders off those names), see
      // headerNamesDoNotSeeNestedClasses.
      header = true;
      Cls c =
          top(
              STUB,
              random.nextInt(3) == 0 ? Frag.EMPTY : doc(),
              random.nextBoolean() ? List.of() : List.of(annotation()),
              random.nextBoolean() ? null : classType(),
              qualify);
      header = false;
      int holders = random.nextInt(3);
      List<Mem> members = new ArrayList<>();
      for (int h = 0; h < holders; h++) {
        Cls holder = holder("H" + h, random.nextBoolean() ? Frag.EMPTY : doc());
        for (int m = random.nextInt(4); m > 0; m--) {
          holder.add(member(true));
        }
        members.add(holder);
      }
      for (int m = random.nextInt(8); m > 0; m--) {
        members.add(member(false));
      }
      java.util.Collections.shuffle(members, random);
      c.members().addAll(members);
      return c;
    }

    Mem member(boolean inHolder) {
      int kind = random.nextInt(inHolder ? 3 : 4);
      Frag doc = random.nextInt(3) == 0 ? doc() : Frag.EMPTY;
      switch (kind) {
        case 0:
          return new Fld(
              doc,
              Set.of(STATIC, FINAL),
              type(),
              name("C"),
              random.nextBoolean() ? Frag.of("null") : expression(2));
        case 1:
          return new Fld(
              doc,
              Set.of(PRIVATE, FINAL),
              type(),
              name("f"),
              random.nextInt(3) == 0 ? expression(1) : Frag.EMPTY);
        case 2:
          return new Mth(
              doc,
              random.nextBoolean() ? List.of() : List.of(annotation()),
              inHolder ? Set.of(STATIC) : Set.of(PUBLIC),
              random.nextInt(4) == 0 ? TypeName.VOID : type(),
              name("m" + "x".repeat(random.nextInt(40))),
              parameters(),
              body());
        default:
          return new Mth(doc, List.of(), Set.of(PUBLIC), null, "", parameters(), body());
      }
    }

    String name(String prefix) {
      String name = prefix + names.size();
      names.add(name);
      return name;
    }

    List<JavaSource.Parameter> parameters() {
      List<JavaSource.Parameter> out = new ArrayList<>();
      for (int n = random.nextInt(random.nextBoolean() ? 3 : 12); n > 0; n--) {
        out.add(param(type(), "p" + out.size() + "y".repeat(random.nextInt(15))));
      }
      return out;
    }

    ClassName classType() {
      while (true) {
        ClassName c = POOL.get(random.nextInt(POOL.size()));
        if (!header || c.simpleNames().stream().noneMatch(n -> n.matches("H[0-9]"))) {
          return c;
        }
      }
    }

    TypeName type() {
      switch (random.nextInt(8)) {
        case 0:
          return TypeName.INT;
        case 1:
          return ArrayTypeName.of(type());
        case 2:
          return ParameterizedTypeName.get(LIST, typeArgument());
        case 3:
          return ParameterizedTypeName.get(MAP, typeArgument(), typeArgument());
        default:
          return classType();
      }
    }

    TypeName typeArgument() {
      switch (random.nextInt(6)) {
        case 0:
          return WildcardTypeName.subtypeOf(Object.class);
        case 1:
          return WildcardTypeName.subtypeOf(classType());
        case 2:
          return WildcardTypeName.supertypeOf(classType());
        default:
          TypeName t = type();
          return t.isPrimitive() ? t.box() : t;
      }
    }

    Ann annotation() {
      switch (random.nextInt(4)) {
        case 0:
          return Ann.marker(OVERRIDE);
        case 1:
          return Ann.of(SUPPRESS, "value", Frag.of("$S", "unchecked"));
        case 2:
          return Ann.of(classType(), "value", Frag.of("$T.class", classType()));
        default:
          return Ann.of(GENERATED, "value", Frag.of("$S", "gen"))
              .and("comments", Frag.of("$S", STRINGS.get(random.nextInt(STRINGS.size()))));
      }
    }

    Frag doc() {
      FragBuilder b = frag();
      for (int n = 1 + random.nextInt(4); n > 0; n--) {
        switch (random.nextInt(5)) {
          case 0 -> b.add("See {@link $T}. ", classType());
          case 1 -> b.add("\n\n");
          case 2 -> b.add("{@code $L}\n", WORDS.get(random.nextInt(WORDS.size())));
          default -> b.add("Some words. ");
        }
      }
      return b.build();
    }

    /** An expression, possibly over several lines. */
    Frag expression(int depth) {
      switch (depth <= 0 ? random.nextInt(3) : random.nextInt(7)) {
        case 0:
          return Frag.of("$S", STRINGS.get(random.nextInt(STRINGS.size())));
        case 1:
          return Frag.of("$T.$N", classType(), "F");
        case 2:
          return Frag.of("$L", WORDS.get(random.nextInt(WORDS.size())));
        case 3:
          return Frag.of(
              "new $T(\n$>$L,\n$L$<)", classType(), expression(depth - 1), expression(depth - 1));
        case 4:
          return Frag.of("f($L, $L)", expression(depth - 1), expression(depth - 1));
        case 5:
          return Frag.join(
              List.of(expression(depth - 1), expression(depth - 1), expression(depth - 1)), ",\n");
        default:
          return frag()
              .add("$T.of(\n", LIST)
              .indent()
              .add("$L", expression(depth - 1))
              .unindent()
              .add(")")
              .build();
      }
    }

    Frag body() {
      FragBuilder b = frag();
      for (int n = random.nextInt(5); n > 0; n--) {
        switch (random.nextInt(6)) {
          case 0 ->
              b.beginControlFlow("try")
                  .addStatement("$L", expression(2))
                  .nextControlFlow("catch ($T e)", classType())
                  .addStatement("throw e")
                  .nextControlFlow("finally")
                  .addStatement("x()")
                  .endControlFlow();
          case 1 ->
              b.beginControlFlow("if ($L)", expression(0))
                  .addStatement("$T y = $L", type(), expression(1))
                  .endControlFlow();
          case 2 -> b.add("$L\n", WORDS.get(random.nextInt(WORDS.size())));
          default -> b.addStatement("$T v$L = $L", type(), n, expression(2));
        }
      }
      return b.build();
    }
  }
}
