package dev.ireestubs.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.abi.SipNode;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import javax.annotation.processing.Filer;

/**
 * Writes the stub class for a {@link StubModel}: straight-line marshalling code that calls {@code
 * dev.ireestubs.invoke.Marshal}'s leaf operations with the descriptor and path of each value as
 * constants. All decisions were made by the binder; this class only spells them out.
 */
final class StubWriter implements StubGenerator {

  private static final String RUNTIME = "dev.ireestubs";
  private static final ClassName MARSHAL = ClassName.get(RUNTIME + ".invoke", "Marshal");
  private static final ClassName FUNCTION_BINDER = ClassName.get(RUNTIME + ".invoke", "FunctionBinder");
  private static final ClassName BACKEND_FUNCTION =
      ClassName.get(RUNTIME + ".invoke", "BackendFunction");
  private static final ClassName MODULE_BACKEND = ClassName.get(RUNTIME + ".invoke", "ModuleBackend");
  private static final ClassName FUNCTION_SIGNATURE =
      ClassName.get(RUNTIME + ".abi", "FunctionSignature");
  private static final ClassName CALLING_MODEL =
      ClassName.get(RUNTIME + ".abi", "FunctionSignature", "CallingModel");
  private static final ClassName ABI_NDARRAY = ClassName.get(RUNTIME + ".abi", "AbiType", "NdArray");
  private static final ClassName ELEMENT_TYPE = ClassName.get(RUNTIME + ".abi", "ElementType");
  private static final ClassName SHAPE = ClassName.get(RUNTIME + ".abi", "Shape");
  private static final ClassName VM_LIST = ClassName.get(RUNTIME + ".vm", "VmList");
  private static final ClassName VM_VALUE = ClassName.get(RUNTIME + ".vm", "VmValue");
  private static final ClassName VM_REF = ClassName.get(RUNTIME + ".vm", "VmRef");
  private static final ClassName PYDM = ClassName.get(RUNTIME + ".pydm", "PyDm");
  private static final ClassName VM_KIND = ClassName.get(RUNTIME + ".abi", "VmKind");
  private static final ClassName NDARRAY_PACKAGE_PROBE = ClassName.get(RUNTIME + ".ndarray", "NdArray");
  private static final ClassName ARRAY_LIST = ClassName.get("java.util", "ArrayList");
  private static final ClassName COLLECTIONS = ClassName.get("java.util", "Collections");
  private static final ClassName LIST = ClassName.get("java.util", "List");
  private static final ClassName LINKED_HASH_MAP = ClassName.get("java.util", "LinkedHashMap");
  private static final ClassName OBJECTS = ClassName.get("java.util", "Objects");
  private static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");

  /** The name of each public {@code ElementType} constant, by value. */
  private static final Map<ElementType, String> ELEMENT_CONSTANTS = elementConstants();

  @Override
  public void write(StubModel model, Filer filer) throws IOException {
    JavaFile.builder(model.stubName().packageName(), stub(model))
        .skipJavaLangImports(true)
        .indent("  ")
        .build()
        .writeTo(filer);
  }

  /** The stub's source, for tests and golden files. */
  static String source(StubModel model) {
    return JavaFile.builder(model.stubName().packageName(), stub(model))
        .skipJavaLangImports(true)
        .indent("  ")
        .build()
        .toString();
  }

  private static TypeSpec stub(StubModel model) {
    ClassName iface = ClassName.get(model.iface());
    Set<String> sources = new LinkedHashSet<>();
    model.functions().forEach(f -> sources.add(f.reflectionSource()));
    TypeSpec.Builder type =
        TypeSpec.classBuilder(model.stubName())
            .addOriginatingElement(model.iface())
            .addModifiers(javax.lang.model.element.Modifier.PUBLIC, javax.lang.model.element.Modifier.FINAL)
            .addSuperinterface(iface)
            .addAnnotation(
                AnnotationSpec.builder(GENERATED)
                    .addMember("value", "$S", IreeStubsProcessor.class.getName())
                    .addMember("comments", "$S", "reflection: " + String.join(", ", sources))
                    .build())
            .addJavadoc(
                "Calls the functions of IREE module {@code $L} through a {@link $T}, as {@link $T}"
                    + " declares them.\n\n"
                    + "<p>Generated by iree-stubs from $L. The constructor checks every function"
                    + " against the loaded module; each call checks its arguments and results"
                    + " (element types, ranks, static dimensions, keys) and says what to fix.\n\n"
                    + "<p>Thread-safe when its backend is: the stub holds no mutable state.\n",
                javadocText(model.moduleName()),
                MODULE_BACKEND,
                iface,
                javadocText(String.join(", ", sources)));

    NameAllocator constants = new NameAllocator();
    MethodSpec.Builder constructor =
        MethodSpec.constructorBuilder()
            .addModifiers(javax.lang.model.element.Modifier.PUBLIC)
            .addJavadoc(
                "Binds every function of {@link $T} in {@code backend}.\n\n"
                    + "@throws dev.ireestubs.invoke.IreeFunctionNotFoundException when the module"
                    + " lacks a function\n"
                    + "@throws dev.ireestubs.invoke.IreeSignatureMismatchException when a function"
                    + " differs from the signature this stub was compiled against\n",
                iface)
            .addParameter(MODULE_BACKEND, "backend")
            .addStatement("$T.requireNonNull(backend, $S)", OBJECTS, "backend");

    for (FunctionModel f : model.functions()) {
      String signatureConstant =
          constants.newName(constantName(f.methodName()) + "_SIGNATURE", f);
      type.addField(
          FieldSpec.builder(
                  FUNCTION_SIGNATURE,
                  signatureConstant,
                  javax.lang.model.element.Modifier.PRIVATE,
                  javax.lang.model.element.Modifier.STATIC,
                  javax.lang.model.element.Modifier.FINAL)
              .initializer(signatureInitializer(f))
              .build());
      String field = constants.newName(f.methodName() + "Function");
      type.addField(
          BACKEND_FUNCTION,
          field,
          javax.lang.model.element.Modifier.PRIVATE,
          javax.lang.model.element.Modifier.FINAL);
      constructor.addStatement(
          "this.$N = $T.bind(backend, $S, $N, $S)",
          field,
          FUNCTION_BINDER,
          model.moduleName() + "." + f.functionName(),
          signatureConstant,
          f.reflectionSource());
      type.addMethod(new MethodWriter(f, field, constants, type, model.moduleName()).write());
    }
    type.addMethod(constructor.build());
    return type.build();
  }

  private static CodeBlock signatureInitializer(FunctionModel f) {
    CodeBlock parsed =
        CodeBlock.of(
            "$T.signature($S, $S)", FUNCTION_BINDER, f.embedded().attribute(), f.embedded().text());
    return f.signature().model() == FunctionSignature.CallingModel.COARSE_FENCES
        ? CodeBlock.of("$L.withModel($T.COARSE_FENCES)", parsed, CALLING_MODEL)
        : parsed;
  }

  /** {@code predict: features.image} → {@code PREDICT_FEATURES_IMAGE}. */
  static String constantName(String path) {
    StringBuilder sb = new StringBuilder();
    String camel = path.replaceAll("([a-z0-9])([A-Z])", "$1_$2");
    for (char c : camel.toCharArray()) {
      if (Character.isLetterOrDigit(c) && c < 128) {
        sb.append(Character.toUpperCase(c));
      } else if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '_') {
        sb.append('_');
      }
    }
    while (sb.length() > 0 && sb.charAt(sb.length() - 1) == '_') {
      sb.setLength(sb.length() - 1);
    }
    String name = sb.length() == 0 ? "VALUE" : sb.toString();
    return Character.isDigit(name.charAt(0)) ? "_" + name : name;
  }

  /**
   * {@code s} (text from a module's metadata) made safe inside a Javadoc comment: nothing in it can
   * close the comment, start a tag, or form a unicode escape that javac reads before parsing.
   */
  static String javadocText(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        out.append("&#92;");
      } else if (c == '@') {
        out.append("{@literal @}");
      } else if (c == '*' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
        out.append("*&#47;");
        i++;
      } else if (c < 0x20 && c != '\n') {
        out.append(' ');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** Writes one method: encode the arguments, invoke, decode the results. */
  private static final class MethodWriter {
    private final FunctionModel f;
    private final String field;
    private final NameAllocator constants;
    private final TypeSpec.Builder type;
    private final String module;
    private final NameAllocator locals = new NameAllocator();
    private final CodeBlock.Builder body = CodeBlock.builder();

    MethodWriter(
        FunctionModel f, String field, NameAllocator constants, TypeSpec.Builder type, String module) {
      this.f = f;
      this.field = field;
      this.constants = constants;
      this.type = type;
      this.module = module;
    }

    MethodSpec write() {
      MethodSpec.Builder method =
          MethodSpec.methodBuilder(f.methodName())
              .addAnnotation(Override.class)
              .addModifiers(javax.lang.model.element.Modifier.PUBLIC)
              .addJavadoc(
                  "Calls {@code $L.$L}: {@code $L}.\n",
                  javadocText(module),
                  javadocText(f.functionName()),
                  javadocText(f.signature().toString()));
      for (ParameterModel p : f.parameters()) {
        locals.newName(p.javaName(), p);
        method.addParameter(ParameterSpec.builder(p.javaType(), p.javaName()).build());
      }
      String arguments = locals.newName("arguments");
      if (f.pydm()) {
        writePyDm(method, arguments);
        return method.addCode(body.build()).build();
      }
      if (f.sip().isPresent()) {
        // V0 structured ABI: the structure never reaches the VM; each leaf fills its raw slot.
        int slots = f.sip().get().raw().arguments().size();
        body.addStatement("$T $N = $T.variant($L)", VM_LIST, arguments, VM_LIST, slots);
        body.addStatement("$N.resize($L)", arguments, slots);
        f.sip().get().inputs().ifPresent(root -> flattenRoot(root, arguments));
      } else {
        body.addStatement(
            "$T $N = $T.variant($L)", VM_LIST, arguments, VM_LIST, f.parameters().size());
        for (ParameterModel p : f.parameters()) {
          CodeBlock element = encode(p.binding(), CodeBlock.of("$N", p.javaName()));
          body.addStatement("$N.push($L)", arguments, element);
        }
      }
      String results = locals.newName("results");
      ResultModel result = f.result();
      int rawCount = f.rawResultCount();
      CodeBlock call =
          CodeBlock.of(
              "$T.results($N.invoke($N), $L, $S)",
              MARSHAL,
              field,
              arguments,
              rawCount,
              f.functionName());
      if (result instanceof ResultModel.Void) {
        body.addStatement(call);
      } else if (result instanceof ResultModel.Single) {
        ResultModel.Single single = (ResultModel.Single) result;
        method.returns(single.javaType());
        body.addStatement("$T $N = $L", VM_LIST, results, call);
        if (f.sip().isPresent()) {
          body.addStatement("return $L", decodeSip(single.binding(), sipResultNode(), results));
        } else {
          body.addStatement("return $L", decode(single.binding(), results, CodeBlock.of("0")));
        }
      } else {
        ResultModel.Inlined inlined = (ResultModel.Inlined) result;
        method.returns(inlined.javaType());
        body.addStatement("$T $N = $L", VM_LIST, results, call);
        if (f.sip().isPresent()) {
          body.addStatement("return $L", decodeSip(inlined.binding(), sipResultNode(), results));
        } else {
          body.addStatement("return $L", decodeChildren(inlined.binding(), results));
        }
      }
      return method.addCode(body.build()).build();
    }

    // ---- IREEPyDM: unboxed values and object records; the exception result becomes an exception

    private void writePyDm(MethodSpec.Builder method, String arguments) {
      body.addStatement(
          "$T $N = $T.variant($L)", VM_LIST, arguments, VM_LIST, f.parameters().size());
      for (ParameterModel p : f.parameters()) {
        CodeBlock value = CodeBlock.of("$N", p.javaName());
        CodeBlock element =
            p.binding() instanceof ScalarBinding
                ? encode(p.binding(), value)
                : CodeBlock.of("$T.encodeArgument($L, $T.REF, $S)", PYDM, value, VM_KIND, p.path());
        body.addStatement("$N.push($L)", arguments, element);
      }
      CodeBlock call = CodeBlock.of("$N.invoke($N)", field, arguments);
      ResultModel result = f.result();
      if (result instanceof ResultModel.Void) {
        body.addStatement("$T.checkResult($L, $S)", PYDM, call, f.functionName());
        return;
      }
      ResultModel.Single single = (ResultModel.Single) result;
      TypeName type = single.javaType();
      method.returns(type);
      CodeBlock decoded = CodeBlock.of("$T.decodeResult($L, $S)", PYDM, call, f.functionName());
      String path = single.binding().path();
      if (type.isPrimitive()) {
        body.addStatement(
            "return $T.expectValue($L, $T.class, $S)", PYDM, decoded, type.box(), path);
      } else if (type instanceof ParameterizedTypeName) {
        method.addAnnotation(
            AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "$S", "unchecked").build());
        body.addStatement(
            "return ($T) $T.expect($L, $T.class, $S)",
            type,
            PYDM,
            decoded,
            ((ParameterizedTypeName) type).rawType(),
            path);
      } else {
        body.addStatement("return $T.expect($L, $T.class, $S)", PYDM, decoded, type, path);
      }
    }

    // ---- V0 SIP: Java structures <-> raw slots by leaf index

    /**
     * The SIP node the return value stands for: a root sequence lists the results, so with one
     * entry the value is that entry; otherwise (several results, a root dict or leaf) the root.
     */
    private SipNode sipResultNode() {
      SipNode root = f.sip().get().results().orElseThrow();
      if (root instanceof SipNode.Sequence && ((SipNode.Sequence) root).entries().size() == 1) {
        return ((SipNode.Sequence) root).entries().get(0).node();
      }
      return root;
    }

    /** Each parameter fills the raw slots of its entry of the input root. */
    private void flattenRoot(SipNode root, String arguments) {
      List<ParameterModel> params = f.parameters();
      for (int i = 0; i < params.size(); i++) {
        SipNode node =
            root instanceof SipNode.Sequence
                ? ((SipNode.Sequence) root).entries().get(i).node()
                : root instanceof SipNode.Dict ? ((SipNode.Dict) root).entries().get(i).node() : root;
        flatten(params.get(i).binding(), node, CodeBlock.of("$N", params.get(i).javaName()), arguments);
      }
    }

    private void flatten(ValueBinding b, SipNode node, CodeBlock value, String arguments) {
      if (node instanceof SipNode.Leaf) {
        int slot = ((SipNode.Leaf) node).rawIndex();
        body.addStatement("$N.set($L, $L)", arguments, slot, encode(b, value));
        return;
      }
      List<SipNode> children = children(node);
      if (b instanceof RecordBinding) {
        RecordBinding r = (RecordBinding) b;
        String record = local(r.record(), value, r.path());
        for (int i = 0; i < children.size(); i++) {
          ComponentBinding c = r.components().get(i);
          flatten(c.binding(), children.get(i), CodeBlock.of("$N.$N()", record, c.accessor()), arguments);
        }
        return;
      }
      if (b instanceof MapBinding) {
        MapBinding m = (MapBinding) b;
        String map = requireKeys(m, value);
        for (int i = 0; i < children.size(); i++) {
          flatten(
              m.values().get(i),
              children.get(i),
              CodeBlock.of("$N.get($S)", map, m.keys().get(i)),
              arguments);
        }
        return;
      }
      ListBinding l = (ListBinding) b;
      String values = local(l.javaType(), value, null);
      body.addStatement("$T.requireSize($N, $L, $S)", MARSHAL, values, children.size(), l.path());
      for (int i = 0; i < children.size(); i++) {
        flatten(l.element(), children.get(i), CodeBlock.of("$N.get($L)", values, i), arguments);
      }
    }

    private CodeBlock decodeSip(ValueBinding b, SipNode node, String results) {
      if (node instanceof SipNode.Leaf) {
        return decode(b, results, CodeBlock.of("$L", ((SipNode.Leaf) node).rawIndex()));
      }
      List<SipNode> children = children(node);
      if (b instanceof RecordBinding) {
        RecordBinding r = (RecordBinding) b;
        return construct(r, i -> decodeSip(r.components().get(i).binding(), children.get(i), results));
      }
      if (b instanceof MapBinding) {
        MapBinding m = (MapBinding) b;
        return collect(m, i -> decodeSip(m.values().get(i), children.get(i), results));
      }
      ListBinding l = (ListBinding) b;
      String out = locals.newName(baseName(l.path()) + "Values");
      body.addStatement(
          "$T $N = new $T<>($L)",
          ParameterizedTypeName.get(LIST, l.element().javaType().box()),
          out,
          ARRAY_LIST,
          children.size());
      for (SipNode child : children) {
        body.addStatement("$N.add($L)", out, decodeSip(l.element(), child, results));
      }
      return CodeBlock.of("$T.unmodifiableList($N)", COLLECTIONS, out);
    }

    private static List<SipNode> children(SipNode node) {
      List<SipNode> out = new ArrayList<>();
      if (node instanceof SipNode.Sequence) {
        ((SipNode.Sequence) node).entries().forEach(e -> out.add(e.node()));
      } else {
        ((SipNode.Dict) node).entries().forEach(e -> out.add(e.node()));
      }
      return out;
    }

    // ---- Java -> VM

    /** Emits what {@code value} needs and returns the expression of its VM list element. */
    private CodeBlock encode(ValueBinding binding, CodeBlock value) {
      String path = binding.path();
      if (binding instanceof ScalarBinding) {
        ScalarBinding s = (ScalarBinding) binding;
        CodeBlock v = s.boxed() ? CodeBlock.of("$T.notNull($L, $S)", MARSHAL, value, path) : value;
        ElementType e = s.type().element();
        if (e.kind() == ElementType.Kind.BOOLEAN) {
          return CodeBlock.of("$T.i1($L)", MARSHAL, v);
        }
        String factory =
            e.equals(ElementType.F32)
                ? "f32"
                : e.equals(ElementType.F64) ? "f64" : "i" + e.bits();
        return CodeBlock.of("$T.$L($L)", VM_VALUE, factory, v);
      }
      if (binding instanceof ArrayBinding) {
        ArrayBinding a = (ArrayBinding) binding;
        return CodeBlock.of("$T.array($L, $N, $S)", MARSHAL, value, arrayConstant(a.type(), path), path);
      }
      if (binding instanceof JavaArrayBinding) {
        JavaArrayBinding a = (JavaArrayBinding) binding;
        String constant = arrayConstant(a.type(), path);
        return CodeBlock.of(
            "$T.array($T.copy($L, $T::of, $N, $S), $N, $S)",
            MARSHAL,
            MARSHAL,
            value,
            arrayClassOf(a.component()),
            constant,
            path,
            constant,
            path);
      }
      if (binding instanceof RecordBinding) {
        RecordBinding r = (RecordBinding) binding;
        String record = local(r.record(), value, path);
        String list = locals.newName(baseName(path) + "List");
        body.addStatement("$T $N = $T.variant($L)", VM_LIST, list, VM_LIST, r.components().size());
        for (ComponentBinding c : r.components()) {
          CodeBlock element = encode(c.binding(), CodeBlock.of("$N.$N()", record, c.accessor()));
          body.addStatement("$N.push($L)", list, element);
        }
        return CodeBlock.of("$N", list);
      }
      if (binding instanceof MapBinding) {
        MapBinding m = (MapBinding) binding;
        String map = requireKeys(m, value);
        String list = locals.newName(baseName(path) + "List");
        body.addStatement("$T $N = $T.variant($L)", VM_LIST, list, VM_LIST, m.keys().size());
        for (int i = 0; i < m.keys().size(); i++) {
          CodeBlock element =
              encode(m.values().get(i), CodeBlock.of("$N.get($S)", map, m.keys().get(i)));
          body.addStatement("$N.push($L)", list, element);
        }
        return CodeBlock.of("$N", list);
      }
      if (binding instanceof ListBinding) {
        ListBinding l = (ListBinding) binding;
        String values = local(l.javaType(), value, null);
        String list = locals.newName(baseName(path) + "List");
        if (l.fixedSize() >= 0) {
          body.addStatement(
              "$T $N = $T.sequence($N, $L, $S)", VM_LIST, list, MARSHAL, values, l.fixedSize(), path);
        } else {
          body.addStatement(
              "$T $N = $T.variant($T.notNull($N, $S).size())",
              VM_LIST,
              list,
              VM_LIST,
              MARSHAL,
              values,
              path);
        }
        String element = locals.newName("element");
        body.beginControlFlow("for ($T $N : $N)", l.element().javaType(), element, values);
        CodeBlock encoded = encode(l.element(), CodeBlock.of("$N", element));
        body.addStatement("$N.push($L)", list, encoded);
        body.endControlFlow();
        return CodeBlock.of("$N", list);
      }
      RefBinding ref = (RefBinding) binding;
      if (ref.type() instanceof AbiType.Any) {
        return value; // null descriptors take whatever ref (or null) the caller has
      }
      return CodeBlock.of("$T.notNull($L, $S)", MARSHAL, value, path);
    }

    // ---- VM -> Java

    /** Emits what element {@code index} of {@code list} needs and returns its Java expression. */
    private CodeBlock decode(ValueBinding binding, String list, CodeBlock index) {
      String path = binding.path();
      if (binding instanceof ScalarBinding) {
        ElementType e = ((ScalarBinding) binding).type().element();
        String reader =
            e.kind() == ElementType.Kind.BOOLEAN
                ? "i1"
                : e.equals(ElementType.F32)
                    ? "f32"
                    : e.equals(ElementType.F64) ? "f64" : "i" + e.bits();
        return CodeBlock.of("$T.$L($N, $L, $S)", MARSHAL, reader, list, index, path);
      }
      if (binding instanceof ArrayBinding) {
        ArrayBinding a = (ArrayBinding) binding;
        return CodeBlock.of(
            "$T.array($N, $L, $N, $T::fromBufferView, $S)",
            MARSHAL,
            list,
            index,
            arrayConstant(a.type(), path),
            a.arrayClass(),
            path);
      }
      if (binding instanceof JavaArrayBinding) {
        JavaArrayBinding a = (JavaArrayBinding) binding;
        return CodeBlock.of(
            "$T.array($N, $L, $N, $T::fromBufferView, $S).$L()",
            MARSHAL,
            list,
            index,
            arrayConstant(a.type(), path),
            arrayClassOf(a.component()),
            path,
            a.rank() == 1 ? "toArray" : "toArray" + a.rank() + "D");
      }
      if (binding instanceof RecordBinding
          || binding instanceof ListBinding
          || binding instanceof MapBinding) {
        int size =
            binding instanceof RecordBinding
                ? ((RecordBinding) binding).components().size()
                : binding instanceof MapBinding
                    ? ((MapBinding) binding).keys().size()
                    : ((ListBinding) binding).fixedSize();
        String nested = locals.newName(baseName(path) + "List");
        body.addStatement(
            "$T $N = $T.list($N, $L, $L, $S)", VM_LIST, nested, MARSHAL, list, index, size, path);
        return decodeChildren(binding, nested);
      }
      RefBinding ref = (RefBinding) binding;
      if (ref.javaType().equals(VM_REF)) {
        return CodeBlock.of("$T.ref($N, $L, $S)", MARSHAL, list, index, path);
      }
      return CodeBlock.of("$T.ref($N, $L, $T.class, $S)", MARSHAL, list, index, ref.javaType(), path);
    }

    /** The record or list whose components are the elements of {@code list}. */
    /**
     * Emits one local per component, decoded by {@code component} (which may emit statements of
     * its own), and returns the record built from them in constructor order.
     */
    private CodeBlock construct(RecordBinding r, IntFunction<CodeBlock> component) {
      Map<String, String> values = new HashMap<>();
      for (int i = 0; i < r.components().size(); i++) {
        ComponentBinding c = r.components().get(i);
        String local = locals.newName(c.accessor());
        body.addStatement("$T $N = $L", c.binding().javaType(), local, component.apply(i));
        values.put(c.accessor(), local);
      }
      List<CodeBlock> args = new ArrayList<>();
      for (ComponentBinding c : r.componentsInConstructorOrder()) {
        args.add(CodeBlock.of("$N", values.get(c.accessor())));
      }
      return CodeBlock.of("new $T($L)", r.record(), CodeBlock.join(args, ", "));
    }

    /** Emits a map of the values {@code value} decodes, in key order, and returns it unmodifiable. */
    private CodeBlock collect(MapBinding m, IntFunction<CodeBlock> value) {
      String out = newMap(m);
      for (int i = 0; i < m.keys().size(); i++) {
        body.addStatement("$N.put($S, $L)", out, m.keys().get(i), value.apply(i));
      }
      return CodeBlock.of("$T.unmodifiableMap($N)", COLLECTIONS, out);
    }

    private CodeBlock decodeChildren(ValueBinding binding, String list) {
      if (binding instanceof RecordBinding) {
        RecordBinding r = (RecordBinding) binding;
        return construct(
            r, i -> decode(r.components().get(i).binding(), list, CodeBlock.of("$L", i)));
      }
      if (binding instanceof MapBinding) {
        MapBinding m = (MapBinding) binding;
        return collect(m, i -> decode(m.values().get(i), list, CodeBlock.of("$L", i)));
      }
      ListBinding l = (ListBinding) binding;
      String out = locals.newName(baseName(l.path()) + "Values");
      body.addStatement(
          "$T $N = new $T<>($N.size())",
          ParameterizedTypeName.get(LIST, l.element().javaType().box()),
          out,
          ARRAY_LIST,
          list);
      String i = locals.newName("i");
      body.beginControlFlow("for (int $N = 0; $N < $N.size(); $N++)", i, i, list, i);
      CodeBlock element = decode(l.element(), list, CodeBlock.of("$N", i));
      body.addStatement("$N.add($L)", out, element);
      body.endControlFlow();
      return CodeBlock.of("$T.unmodifiableList($N)", COLLECTIONS, out);
    }

    // ---- maps

    /**
     * Checks that the map {@code value} has exactly the sdict's keys and returns a name for it (the
     * value itself when it is a plain name).
     */
    private String requireKeys(MapBinding m, CodeBlock value) {
      String keys = keysConstant(m);
      String text = value.toString();
      if (javax.lang.model.SourceVersion.isIdentifier(text)) {
        body.addStatement("$T.requireKeys($N, $N, $S)", MARSHAL, text, keys, m.path());
        return text;
      }
      String name = locals.newName(baseName(m.path()) + "Map");
      body.addStatement(
          "$T $N = $T.requireKeys($L, $N, $S)", m.javaType(), name, MARSHAL, value, keys, m.path());
      return name;
    }

    /** A new {@code LinkedHashMap} local for the values of {@code m}, sized for its keys. */
    private String newMap(MapBinding m) {
      String out = locals.newName(baseName(m.path()) + "Map");
      int capacity = (int) Math.ceil(m.keys().size() / 0.75);
      body.addStatement("$T $N = new $T<>($L)", m.javaType(), out, LINKED_HASH_MAP, capacity);
      return out;
    }

    /** A {@code List<String>} constant of the sdict's keys, in descriptor order. */
    private String keysConstant(MapBinding m) {
      String name = constants.newName(constantName(m.path()) + "_KEYS");
      List<CodeBlock> keys = new ArrayList<>();
      m.keys().forEach(k -> keys.add(CodeBlock.of("$S", k)));
      type.addField(
          FieldSpec.builder(
                  ParameterizedTypeName.get(LIST, ClassName.get(String.class)),
                  name,
                  javax.lang.model.element.Modifier.PRIVATE,
                  javax.lang.model.element.Modifier.STATIC,
                  javax.lang.model.element.Modifier.FINAL)
              .initializer("$T.of($L)", LIST, CodeBlock.join(keys, ", "))
              .build());
      return name;
    }

    // ---- names and constants

    /**
     * A name for {@code value}: itself when it is already a plain name (a parameter, a loop
     * variable), else a new local assigned from it, null-checked when {@code nullCheckPath} is set.
     */
    private String local(TypeName type, CodeBlock value, String nullCheckPath) {
      String text = value.toString();
      if (javax.lang.model.SourceVersion.isIdentifier(text)) {
        if (nullCheckPath != null) {
          body.addStatement("$T.notNull($N, $S)", MARSHAL, text, nullCheckPath);
        }
        return text;
      }
      String name = locals.newName(text.endsWith("()") ? text.substring(text.lastIndexOf('.') + 1, text.length() - 2) : "value");
      if (nullCheckPath != null) {
        body.addStatement("$T $N = $T.notNull($L, $S)", type, name, MARSHAL, value, nullCheckPath);
      } else {
        body.addStatement("$T $N = $L", type, name, value);
      }
      return name;
    }

    /** The last name in a path, camelCased: {@code predict: features.image_data} → {@code imageData}. */
    private static String baseName(String path) {
      if (path.endsWith("[*]")) {
        return "element";
      }
      int colon = path.indexOf(": ");
      String tail = colon >= 0 ? path.substring(colon + 2) : path;
      String[] parts = tail.replace("[*]", "").split("[.\\[\\]]");
      for (int i = parts.length - 1; i >= 0; i--) {
        if (!parts[i].isEmpty() && !parts[i].chars().allMatch(Character::isDigit)) {
          String camel = AbiType.Dict.camelCase(parts[i]);
          return Names.isJavaName(camel) ? camel : "value";
        }
      }
      return "value";
    }

    private String arrayConstant(AbiType.NdArray array, String path) {
      String name = constants.newName(constantName(path));
      type.addField(
          FieldSpec.builder(
                  ABI_NDARRAY,
                  name,
                  javax.lang.model.element.Modifier.PRIVATE,
                  javax.lang.model.element.Modifier.STATIC,
                  javax.lang.model.element.Modifier.FINAL)
              .initializer(
                  "new $T($L, $L)", ABI_NDARRAY, elementType(array.element()), shape(array.shape()))
              .build());
      return name;
    }
  }

  private static CodeBlock elementType(ElementType e) {
    String constant = ELEMENT_CONSTANTS.get(e);
    if (constant != null) {
      return CodeBlock.of("$T.$L", ELEMENT_TYPE, constant);
    }
    return CodeBlock.of("$T.fromHalCode($L).orElseThrow()", ELEMENT_TYPE, e.halCode().orElse(0));
  }

  private static CodeBlock shape(Shape shape) {
    if (!shape.isRanked()) {
      return CodeBlock.of("$T.unranked()", SHAPE);
    }
    if (shape.rank() == 0) {
      return CodeBlock.of("$T.scalar()", SHAPE);
    }
    List<CodeBlock> dims = new ArrayList<>();
    for (int i = 0; i < shape.rank(); i++) {
      dims.add(
          shape.isDynamic(i) ? CodeBlock.of("$T.DYNAMIC", SHAPE) : CodeBlock.of("$L", shape.dim(i)));
    }
    return CodeBlock.of("$T.of($L)", SHAPE, CodeBlock.join(dims, ", "));
  }

  private static ClassName arrayClassOf(TypeName component) {
    for (Class<?> c :
        List.of(float.class, double.class, boolean.class, byte.class, short.class, int.class, long.class)) {
      if (component.equals(TypeName.get(c))) {
        return NDARRAY_PACKAGE_PROBE.peerClass(JavaMapping.arrayClassOfComponent(c).orElseThrow());
      }
    }
    throw new IllegalArgumentException("no array class for Java arrays of " + component);
  }

  private static Map<ElementType, String> elementConstants() {
    Map<ElementType, String> out = new HashMap<>();
    for (Field field : ElementType.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == ElementType.class) {
        try {
          out.putIfAbsent((ElementType) field.get(null), field.getName());
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return out;
  }
}
