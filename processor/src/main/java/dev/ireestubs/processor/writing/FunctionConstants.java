package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.JavaArrayBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.printing.Code;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The constants one function's code needs, as {@link SignatureCode} writes them: the signature the
 * stub binds with, each descriptor its marshalling checks a value against (an n-d array's, an
 * {@code sdict}'s), and for an sdict bound to a map its keys, the path of each value and, for
 * arrays, each value's descriptor, derived from the sdict's constant.
 */
final class FunctionConstants {

  /**
   * The constants of a map's sdict: the sdict and its keys; for a map marshalled in one loop over
   * its keys, each value's path and (for arrays) descriptor, else null.
   */
  record MapConstants(String dict, String keys, String paths, String arrays) {
    /** True when the map is marshalled in one loop over its keys. */
    boolean loop() {
      return paths != null;
    }
  }

  private final String signature;
  private final Map<String, String> texts;
  private final Map<AbiType, String> descriptors;
  private final Map<MapBinding, MapConstants> maps;
  private final List<SignatureCode.Constant> constants;

  private FunctionConstants(
      String signature,
      Map<String, String> texts,
      Map<AbiType, String> descriptors,
      Map<MapBinding, MapConstants> maps,
      List<SignatureCode.Constant> constants) {
    this.signature = signature;
    this.texts = texts;
    this.descriptors = descriptors;
    this.maps = maps;
    this.constants = constants;
  }

  /**
   * The constants of {@code plan}.
   *
   * @param names allocates a name unique in the stub from a suggestion
   * @param placePart puts a part of a long list in a parts holder, returning how to call it
   * @param shared the constants already written in the holder, which equal values name
   */
  static FunctionConstants of(
      CallPlan plan,
      Function<String, String> names,
      Function<SignatureCode.Part, Code> placePart,
      SignatureCode.Shared shared) {
    IdentityHashMap<AbiType, String> wanted = new IdentityHashMap<>();
    List<AbiType> order = new ArrayList<>();
    List<MapBinding> mapOrder = new ArrayList<>();
    // A SIP function flattens a map key by key into raw slots; other plans loop over its keys.
    boolean loops = !(plan instanceof CallPlan.Sip);
    for (ParameterModel p : plan.parameters()) {
      collect(p.binding(), loops, wanted, order, mapOrder);
    }
    ResultModel result = plan.result();
    if (result instanceof ResultModel.Single single) {
      collect(single.binding(), loops, wanted, order, mapOrder);
    } else if (result instanceof ResultModel.Inlined inlined) {
      collect(inlined.binding(), loops, wanted, order, mapOrder);
    }
    SignatureCode code = new SignatureCode(names, placePart, wanted, shared);
    String signature = code.signature(plan.boundSignature(), constantName(plan.methodName()));
    // Descriptors outside the bound signature (an untyped ref bound as an array; the structured
    // view of a SIP function) get constants of their own.
    IdentityHashMap<AbiType, String> descriptors = new IdentityHashMap<>();
    for (AbiType node : order) {
      descriptors.put(node, code.constant(node, wanted.get(node)));
    }
    IdentityHashMap<MapBinding, MapConstants> maps = new IdentityHashMap<>();
    for (MapBinding m : mapOrder) {
      maps.put(m, mapConstants(code, m, descriptors.get(m.type()), loops && m.hasLeafValues()));
    }
    // Texts too long for one string constant (paths through a very long key) become constants.
    Map<String, String> texts = new HashMap<>();
    for (String text : texts(plan)) {
      if (!Literals.fits(text) && !texts.containsKey(text)) {
        SignatureCode.Expr e = Literals.string(text);
        texts.put(text, code.derived(ClassName.get(String.class), "TEXT", e.code(), e.cost()));
      }
    }
    return new FunctionConstants(signature, texts, descriptors, maps, code.constants());
  }

  private static MapConstants mapConstants(
      SignatureCode code, MapBinding map, String dict, boolean loop) {
    SignatureCode.Cost call = new SignatureCode.Cost(12, 6);
    String keys =
        code.derived(
            ParameterizedTypeName.get(SignatureCode.LIST, ClassName.get(String.class)),
            dict + "_KEYS",
            Code.of("$N.keys()", dict),
            call);
    if (!loop) {
      return new MapConstants(dict, keys, null, null);
    }
    SignatureCode.Expr path = Literals.string(map.path());
    String paths =
        code.derived(
            ParameterizedTypeName.get(SignatureCode.LIST, ClassName.get(String.class)),
            dict + "_PATHS",
            Code.of("$T.keyPaths($L, $N)", SignatureCode.STUB_CONSTANTS, path.code(), keys),
            call.plus(path.cost()));
    String arrays = null;
    if (!map.values().isEmpty()
        && (map.values().get(0) instanceof ArrayBinding
            || map.values().get(0) instanceof JavaArrayBinding)) {
      arrays =
          code.derived(
              ParameterizedTypeName.get(
                  SignatureCode.LIST, SignatureCode.ABI_TYPE.nestedClass("NdArray")),
              dict + "_ARRAYS",
              Code.of("$T.arrays($N)", SignatureCode.STUB_CONSTANTS, dict),
              call);
    }
    return new MapConstants(dict, keys, paths, arrays);
  }

  /** Every text the plan's marshalling code writes: the function's name, paths, map keys. */
  private static List<String> texts(CallPlan plan) {
    List<String> out = new ArrayList<>();
    out.add(plan.functionName());
    for (ParameterModel p : plan.parameters()) {
      texts(p.binding(), out);
    }
    ResultModel result = plan.result();
    if (result instanceof ResultModel.Single single) {
      texts(single.binding(), out);
    } else if (result instanceof ResultModel.Inlined inlined) {
      texts(inlined.binding(), out);
    }
    return out;
  }

  private static void texts(ValueBinding b, List<String> out) {
    out.add(b.path());
    if (b instanceof RecordBinding recordBinding) {
      recordBinding.components().forEach(c -> texts(c.binding(), out));
    } else if (b instanceof ListBinding listBinding) {
      texts(listBinding.element(), out);
    } else if (b instanceof MapBinding mapBinding) {
      out.addAll(mapBinding.keys());
      mapBinding.values().forEach(v -> texts(v, out));
    }
  }

  /** Adds the descriptors {@code b} and what it contains need to {@code wanted}. */
  private static void collect(
      ValueBinding b,
      boolean loops,
      Map<AbiType, String> wanted,
      List<AbiType> order,
      List<MapBinding> maps) {
    if (b instanceof ArrayBinding || b instanceof JavaArrayBinding) {
      AbiType t = b.type();
      want(
          t,
          t instanceof AbiType.NdArray ndArray ? arrayName(ndArray) : constantName(b.path()),
          wanted,
          order);
    } else if (b instanceof RecordBinding recordBinding) {
      recordBinding.components().forEach(c -> collect(c.binding(), loops, wanted, order, maps));
    } else if (b instanceof ListBinding listBinding) {
      collect(listBinding.element(), loops, wanted, order, maps);
    } else if (b instanceof MapBinding m) {
      // The sdict's constant gives its keys, and for one loop over them, paths and descriptors.
      want(m.type(), constantName(m.path()), wanted, order);
      maps.add(m);
      if (!(loops && m.hasLeafValues())) {
        m.values().forEach(v -> collect(v, loops, wanted, order, maps));
      }
    }
  }

  /**
   * An n-d array descriptor's constant is named for what it holds ({@code F32_1X3}, {@code
   * I32_1XDYN}, {@code F64_RANK0}), not for the first value that uses it: equal descriptors are one
   * constant, which every function's values of that type name.
   */
  static String arrayName(AbiType.NdArray t) {
    StringBuilder sb = new StringBuilder();
    String element = t.element().mlirName();
    for (int i = 0; i < element.length() && i < 40; i++) {
      char c = element.charAt(i);
      boolean letter = c < 128 && Character.isLetterOrDigit(c);
      if (letter || (sb.length() > 0 && sb.charAt(sb.length() - 1) != '_')) {
        sb.append(letter ? Character.toUpperCase(c) : '_');
      }
    }
    while (sb.length() > 0 && sb.charAt(sb.length() - 1) == '_') {
      sb.setLength(sb.length() - 1);
    }
    if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
      sb.insert(0, "ARRAY_");
    }
    Shape shape = t.shape();
    if (!shape.isRanked()) {
      return sb.append("_UNRANKED").toString();
    }
    if (shape.rank() == 0 || shape.rank() > 8) {
      return sb.append("_RANK").append(shape.rank()).toString();
    }
    for (int axis = 0; axis < shape.rank(); axis++) {
      sb.append(axis == 0 ? "_" : "X");
      sb.append(shape.isDynamic(axis) ? "DYN" : Long.toString(shape.dim(axis)));
    }
    return sb.toString();
  }

  private static void want(
      AbiType node, String name, Map<AbiType, String> wanted, List<AbiType> order) {
    if (!wanted.containsKey(node)) {
      wanted.put(node, name);
      order.add(node);
    }
  }

  /** The constant holding {@code text} when it is too long for a literal; else null. */
  String longText(String text) {
    return texts.get(text);
  }

  /** True when some text of the function is too long for a literal and is a constant instead. */
  boolean hasLongTexts() {
    return !texts.isEmpty();
  }

  /** The signature constant's name. */
  String signature() {
    return signature;
  }

  /** The constant of descriptor {@code node} (by identity), which the marshalling code named. */
  String descriptor(AbiType node) {
    String name = descriptors.get(node);
    if (name == null) {
      throw new IllegalStateException("no constant for " + node);
    }
    return name;
  }

  /**
   * The constants of a map: marshalled in one loop over its keys when its values are leaves ({@link
   * MapBinding#hasLeafValues()}) outside a SIP function, else key by key.
   */
  MapConstants map(MapBinding map) {
    MapConstants constants = maps.get(map);
    if (constants == null) {
      throw new IllegalStateException("no constants for the map at " + map.path());
    }
    return constants;
  }

  /** Every constant, in initialization order. */
  List<SignatureCode.Constant> constants() {
    return constants;
  }

  /** What the constants cost in their holder's class initializer and constant pool. */
  SignatureCode.Cost cost() {
    SignatureCode.Cost cost = SignatureCode.Cost.NONE;
    for (SignatureCode.Constant c : constants) {
      cost = cost.plus(c.cost());
    }
    return cost;
  }

  /** {@code predict: features.image} → {@code PREDICT_FEATURES_IMAGE}. */
  static String constantName(String path) {
    StringBuilder sb = new StringBuilder();
    int limit = Math.min(path.length(), 200);
    for (int i = 0; i < limit; i++) {
      char c = path.charAt(i);
      boolean boundary =
          i > 0
              && Character.isUpperCase(c)
              && (Character.isLowerCase(path.charAt(i - 1))
                  || Character.isDigit(path.charAt(i - 1)));
      if (boundary && sb.length() > 0 && sb.charAt(sb.length() - 1) != '_') {
        sb.append('_');
      }
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
}
