package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.testing.compile.Compilation;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.JavaArrays;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.JavaArrayBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.RefBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.ScalarBinding;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every corpus signature with a Java mapping, end to end: an interface written from it is compiled
 * with the processor, and the generated stub is called with Java values (records, lists, typed and
 * Java arrays, scalars, refs) against a host module registered with the same signature. The host
 * function must receive exactly the values sent, and the stub must return exactly the values the
 * host function returned.
 */
class CorpusEndToEndTest {

  @TempDir Path dir;

  /** A value in its two forms: as the stub takes or returns it, and as a host function sees it. */
  private record Sample(Object java, Object dynamic) {}

  @Test
  void everyBindableCorpusSignatureIsCalledThroughItsGeneratedStub() throws Exception {
    List<JsonNode> lines = SharedData.jsonLines("reflection-corpus.jsonl");
    List<InterfaceSource.Generated> sources = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String abi = SharedData.compact(lines.get(i).get("abi"));
      FunctionSignature s = AbiJson.parseFunction(abi);
      if (InterfaceSource.unsupported(s).isPresent()) {
        continue;
      }
      sources.add(
          InterfaceSource.generate(
              String.format("E%02d", i),
              lines.get(i).get("function").asText(),
              abi,
              s,
              InterfaceSource.Perturbation.NONE,
              i % 2 == 0));
    }
    ProcessorTester t = new ProcessorTester(dir);
    Compilation c =
        t.compileClean(
            sources.stream().map(InterfaceSource.Generated::file).toArray(JavaFileObject[]::new));
    CompiledClasses classes = new CompiledClasses(c);
    Random random = new Random(42);
    int called = 0;
    for (StubModel model : t.models) {
      CallPlan f = model.functions().get(0);
      Generator g = new Generator(classes, random);
      List<Sample> args = new ArrayList<>();
      for (ParameterModel p : f.parameters()) {
        args.add(g.sample(p.binding()));
      }
      Sample results = resultSample(g, f.result());
      AtomicReference<List<Object>> received = new AtomicReference<>();
      HostModule module =
          HostModule.builder(model.moduleName())
              .valueFunction(
                  f.functionName(),
                  f.signature(),
                  a -> {
                    // Arguments are valid for the call only: keep copies (JDK 22+ closes them).
                    received.set(keptCopy(a));
                    return results.dynamic();
                  })
              .build();
      Object stub =
          classes
              .load(model.stubName().reflectionName())
              .getConstructor(ModuleBackend.class)
              .newInstance(module);
      Class<?> iface = classes.load(model.iface().reflectionName());
      Method method = find(iface, f.methodName());
      Object returned;
      try {
        returned = method.invoke(stub, args.stream().map(Sample::java).toArray());
      } catch (InvocationTargetException e) {
        throw new AssertionError(model.stubName() + " " + f.signature(), e.getCause());
      }
      List<Object> expectedArgs = new ArrayList<>();
      args.forEach(a -> expectedArgs.add(a.dynamic()));
      assertWithMessage("%s arguments", model.stubName())
          .that(received.get())
          .isEqualTo(expectedArgs);
      assertWithMessage("%s results", model.stubName())
          .that(toDynamic(f.result(), returned))
          .isEqualTo(results.dynamic());
      called++;
    }
    System.out.println(
        "processor end to end over the iree.abi corpus: "
            + called
            + " generated stubs called against host modules with records, lists, arrays, scalars"
            + " and refs; every argument and result arrived unchanged");
    assertThat(called).isEqualTo(sources.size());
  }

  /**
   * {@code arguments} with every array copied (in lists and maps too), to compare after the call.
   */
  @SuppressWarnings("unchecked")
  private static <T> T keptCopy(T value) {
    if (value instanceof NdArray) {
      return (T) ((NdArray) value).copy();
    }
    if (value instanceof List) {
      List<Object> copy = new ArrayList<>();
      ((List<?>) value).forEach(e -> copy.add(keptCopy(e)));
      return (T) copy;
    }
    if (value instanceof Map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      ((Map<?, ?>) value).forEach((k, v) -> copy.put(k, keptCopy(v)));
      return (T) copy;
    }
    return value;
  }

  private static Sample resultSample(Generator g, ResultModel result) {
    if (result instanceof ResultModel.Single) {
      return g.sample(((ResultModel.Single) result).binding());
    }
    if (result instanceof ResultModel.Inlined) {
      return g.sample(((ResultModel.Inlined) result).binding());
    }
    return new Sample(null, null);
  }

  private static Object toDynamic(ResultModel result, Object value) throws Exception {
    if (result instanceof ResultModel.Single) {
      return toDynamic(((ResultModel.Single) result).binding(), value);
    }
    if (result instanceof ResultModel.Inlined) {
      return toDynamic(((ResultModel.Inlined) result).binding(), value);
    }
    return value;
  }

  /** The host-side form of a value a stub returned. */
  private static Object toDynamic(ValueBinding b, Object value) throws Exception {
    if (b instanceof JavaArrayBinding) {
      return JavaArrays.copyOf(value);
    }
    if (b instanceof RecordBinding) {
      RecordBinding r = (RecordBinding) b;
      Map<String, Object> map = new LinkedHashMap<>();
      List<Object> list = new ArrayList<>();
      for (ComponentBinding c : r.components()) {
        Method accessor = value.getClass().getDeclaredMethod(c.accessor());
        accessor.setAccessible(true);
        Object component = accessor.invoke(value);
        Object d = toDynamic(c.binding(), component);
        if (r.type() instanceof AbiType.Dict) {
          map.put(c.key(), d);
        } else {
          list.add(d);
        }
      }
      return r.type() instanceof AbiType.Dict ? map : list;
    }
    if (b instanceof MapBinding) {
      MapBinding m = (MapBinding) b;
      Map<String, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < m.keys().size(); i++) {
        String key = m.keys().get(i);
        out.put(key, toDynamic(m.values().get(i), ((Map<?, ?>) value).get(key)));
      }
      return out;
    }
    if (b instanceof ListBinding) {
      List<Object> out = new ArrayList<>();
      for (Object e : (List<?>) value) {
        out.add(toDynamic(((ListBinding) b).element(), e));
      }
      return out;
    }
    return value;
  }

  private static Method find(Class<?> iface, String name) {
    for (Method m : iface.getMethods()) {
      if (m.getName().equals(name) && !m.isDefault()) {
        m.setAccessible(true); // the generated interfaces are package-private
        return m;
      }
    }
    throw new AssertionError("no method " + name + " in " + iface);
  }

  /** Makes sample values for bindings, building records of the compiled interface by reflection. */
  private static final class Generator {
    private final CompiledClasses classes;
    private final Random random;

    Generator(CompiledClasses classes, Random random) {
      this.classes = classes;
      this.random = random;
    }

    Sample sample(ValueBinding b) {
      if (b instanceof ScalarBinding) {
        Object v = scalar(((ScalarBinding) b).type().element());
        return new Sample(v, v);
      }
      if (b instanceof ArrayBinding) {
        ArrayBinding a = (ArrayBinding) b;
        NdArray array = array(a.type(), elementOf(a.arrayClass(), a.type().element()));
        return new Sample(array, array);
      }
      if (b instanceof JavaArrayBinding) {
        JavaArrayBinding a = (JavaArrayBinding) b;
        NdArray array = array(a.type(), a.type().element());
        return new Sample(JavaArrays.toJavaArray(array), array);
      }
      if (b instanceof RecordBinding) {
        RecordBinding r = (RecordBinding) b;
        Map<String, Sample> byAccessor = new LinkedHashMap<>();
        Map<String, Object> map = new LinkedHashMap<>();
        List<Object> list = new ArrayList<>();
        for (ComponentBinding c : r.components()) {
          Sample s = sample(c.binding());
          byAccessor.put(c.accessor(), s);
          if (r.type() instanceof AbiType.Dict) {
            map.put(c.key(), s.dynamic());
          } else {
            list.add(s.dynamic());
          }
        }
        Object[] ctorArgs =
            r.constructorOrder().stream().map(n -> byAccessor.get(n).java()).toArray();
        Object record = construct(r.record(), ctorArgs);
        return new Sample(record, r.type() instanceof AbiType.Dict ? map : list);
      }
      if (b instanceof MapBinding) {
        MapBinding m = (MapBinding) b;
        Map<String, Object> java = new LinkedHashMap<>();
        Map<String, Object> dynamic = new LinkedHashMap<>();
        for (int i = 0; i < m.keys().size(); i++) {
          Sample s = sample(m.values().get(i));
          java.put(m.keys().get(i), s.java());
          dynamic.put(m.keys().get(i), s.dynamic());
        }
        return new Sample(java, dynamic);
      }
      if (b instanceof ListBinding) {
        ListBinding l = (ListBinding) b;
        int n = l.fixedSize() >= 0 ? l.fixedSize() : random.nextInt(4);
        List<Object> java = new ArrayList<>();
        List<Object> dynamic = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          Sample s = sample(l.element());
          java.add(s.java());
          dynamic.add(s.dynamic());
        }
        return new Sample(java, dynamic);
      }
      RefBinding ref = (RefBinding) b;
      String type =
          ref.type() instanceof AbiType.Ref && !((AbiType.Ref) ref.type()).refType().equals("?")
              ? ((AbiType.Ref) ref.type()).refType().replace("!", "")
              : "test.ref";
      OpaqueRef r = OpaqueRef.of(type, random.nextInt());
      return new Sample(r, r);
    }

    private Object construct(ClassName record, Object[] args) {
      Class<?> type = classes.load(record.reflectionName());
      Constructor<?> ctor = type.getDeclaredConstructors()[0];
      for (Constructor<?> candidate : type.getDeclaredConstructors()) {
        if (candidate.getParameterCount() == args.length) {
          ctor = candidate;
        }
      }
      try {
        ctor.setAccessible(true);
        return ctor.newInstance(args);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(record + " " + java.util.Arrays.toString(args), e);
      }
    }

    private Object scalar(ElementType e) {
      if (e.equals(ElementType.I1)) {
        return random.nextBoolean();
      } else if (e.equals(ElementType.F32)) {
        return random.nextFloat();
      } else if (e.equals(ElementType.F64)) {
        return random.nextDouble();
      }
      switch (e.bits()) {
        case 8:
          return (byte) random.nextInt();
        case 16:
          return (short) random.nextInt();
        case 32:
          return random.nextInt();
        default:
          return random.nextLong();
      }
    }

    /** The element type an array class stores (unsigned classes their unsigned type). */
    private static ElementType elementOf(TypeName arrayClass, ElementType declared) {
      String simple = ((ClassName) arrayClass).simpleName();
      switch (simple) {
        case "UByteArray":
          return ElementType.UI8;
        case "UShortArray":
          return ElementType.UI16;
        case "UIntArray":
          return ElementType.UI32;
        case "ULongArray":
          return ElementType.UI64;
        default:
          return declared.isKnown() ? declared : ElementType.F32;
      }
    }

    private NdArray array(AbiType.NdArray type, ElementType element) {
      long[] shape;
      if (type.shape().isRanked()) {
        shape = type.shape().dims().clone();
        for (int i = 0; i < shape.length; i++) {
          if (shape[i] < 0) {
            shape[i] = 1 + random.nextInt(3);
          }
        }
      } else {
        shape = new long[] {1 + random.nextInt(3)};
      }
      BufferView view = BufferView.allocate(element.halCode().orElseThrow(), shape);
      ByteBuffer data = view.data();
      for (int i = 0; i < data.capacity(); i++) {
        data.put(
            i, element.equals(ElementType.I1) ? (byte) random.nextInt(2) : (byte) random.nextInt());
      }
      return NdArray.fromBufferView(view);
    }
  }
}
