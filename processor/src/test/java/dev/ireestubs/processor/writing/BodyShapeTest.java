package dev.ireestubs.processor.writing;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static dev.ireestubs.processor.ProcessorTester.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.processor.InterfaceSource;
import dev.ireestubs.processor.InterfaceSource.Generated;
import dev.ireestubs.processor.InterfaceSource.Perturbation;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.testing.SharedData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BodyShape} stands for the printed shared body: methods of equal shapes print equal bodies
 * (the rule that makes sharing safe), methods whose bodies print equal have equal shapes (so
 * grouping by shape shares what printing every body would), and each method passes the constants
 * its own body would name, in the shared body's order. Checked on modules that repeat every kind of
 * binding with other names, dimensions and constant patterns, and on the corpus, each of whose
 * signatures is bound three times under other names.
 */
class BodyShapeTest {

  /** Pairs and triples of one Java declaration whose bodies are, or are not, equal. */
  static final String MODULE_JSON =
      "{'same1': {'a': [['ndarray', 'f32', 1, 2], ['ndarray', 'f32', 1, 2]], 'r': [['ndarray', 'f32', 1, 2]]},"
          + " 'same2': {'a': [['ndarray', 'f32', 1, 7], ['ndarray', 'f32', 1, 7]], 'r': [['ndarray', 'f32', 1, 7]]},"
          // Two constants where the others have one: other parameters, another body.
          + " 'twoConstants': {'a': [['ndarray', 'f32', 1, 2], ['ndarray', 'f32', 1, 3]], 'r': [['ndarray', 'f32', 1, 2]]},"
          + " 'resultOwn': {'a': [['ndarray', 'f32', 1, 2], ['ndarray', 'f32', 1, 2]], 'r': [['ndarray', 'f32', 1, 5]]},"
          + " 'dynamic': {'a': [['ndarray', 'f32', 1, null], ['ndarray', 'f32', 1, null]], 'r': [['ndarray', 'f32', 1, null]]},"
          + " 'dict1': {'a': [['sdict', ['image', ['ndarray', 'f32', 2, 1, 2]], ['label', 'i32']]],"
          + "  'r': [['sdict', ['logits', ['ndarray', 'f32', 1, 3]], ['probs', ['ndarray', 'f32', 1, 3]]]]},"
          + " 'dict2': {'a': [['sdict', ['image', ['ndarray', 'f32', 2, 1, 9]], ['label', 'i32']]],"
          + "  'r': [['sdict', ['logits', ['ndarray', 'f32', 1, 4]], ['probs', ['ndarray', 'f32', 1, 4]]]]},"
          + " 'dict3': {'a': [['sdict', ['image', ['ndarray', 'f32', 2, 1, 9]], ['label', 'i32']]],"
          + "  'r': [['sdict', ['logits', ['ndarray', 'f32', 1, 4]], ['probs', ['ndarray', 'f32', 1, 5]]]]},"
          + " 'seq1': {'a': [['slist', 'i32', ['ndarray', 'f32', 1, 2]]], 'r': ['i64']},"
          + " 'seq2': {'a': [['slist', 'i32', ['ndarray', 'f32', 1, 6]]], 'r': ['i64']},"
          + " 'fixed2': {'a': [['stuple', 'i32', 'i32']], 'r': ['i32']},"
          + " 'fixed3': {'a': [['stuple', 'i32', 'i32', 'i32']], 'r': ['i32']},"
          + " 'rows1': {'a': [['py_homogeneous_list', ['ndarray', 'f32', 1, 2]]], 'r': [['py_homogeneous_list', 'i32']]},"
          + " 'rows2': {'a': [['py_homogeneous_list', ['ndarray', 'f32', 1, 8]]], 'r': [['py_homogeneous_list', 'i32']]},"
          + " 'grid1': {'a': [['ndarray', 'f64', 2, 2, 2]], 'r': ['i64', ['ndarray', 'f64', 2, 2, 2]]},"
          + " 'grid2': {'a': [['ndarray', 'f64', 2, 3, 3]], 'r': ['i64', ['ndarray', 'f64', 2, 3, 3]]},"
          + " 'grid3': {'a': [['ndarray', 'f64', 2, 3, 3]], 'r': ['i64', ['ndarray', 'f64', 2, 4, 4]]},"
          + " 'scores1': {'a': [['sdict', ['a', ['ndarray', 'f32', 1, 2]], ['b', ['ndarray', 'f32', 1, 2]]]], 'r': []},"
          + " 'scores2': {'a': [['sdict', ['x', ['ndarray', 'f32', 1, 2]], ['y', ['ndarray', 'f32', 1, 2]]]], 'r': []},"
          + " 'x': {'a': ['i32', 'i64'], 'r': ['i32']},"
          + " 'aMuchLongerFunctionName': {'a': ['i32', 'i64'], 'r': ['i32']},"
          + " 'i1Flag': {'a': ['i1'], 'r': ['i1']},"
          + " 'i1Other': {'a': ['i1'], 'r': ['i1']}}";

  static final String[] MODULE = {
    "@IreeModule(name = \"module\", abi = \"shapes.abi.json\")",
    "public interface Shapes {",
    "  record Features(FloatArray image, int label) {}",
    "  record Scores(FloatArray logits, FloatArray probs) {}",
    "  record Pair(int count, FloatArray values) {}",
    "  record Grid(long count, double[][] grid) {}",
    "  FloatArray same1(FloatArray a, FloatArray b);",
    "  FloatArray same2(FloatArray a, FloatArray b);",
    "  FloatArray twoConstants(FloatArray a, FloatArray b);",
    "  FloatArray resultOwn(FloatArray a, FloatArray b);",
    "  FloatArray dynamic(FloatArray a, FloatArray b);",
    "  Scores dict1(Features features);",
    "  Scores dict2(Features features);",
    "  Scores dict3(Features features);",
    "  long seq1(Pair pair);",
    "  long seq2(Pair pair);",
    "  int fixed2(List<Integer> values);",
    "  int fixed3(List<Integer> values);",
    "  List<Integer> rows1(List<FloatArray> rows);",
    "  List<Integer> rows2(List<FloatArray> rows);",
    "  Grid grid1(double[][] m);",
    "  Grid grid2(double[][] m);",
    "  Grid grid3(double[][] m);",
    "  void scores1(java.util.Map<String, FloatArray> scores);",
    "  void scores2(java.util.Map<String, FloatArray> scores);",
    "  int x(int a, long b);",
    "  int aMuchLongerFunctionName(int a, long b);",
    "  boolean i1Flag(boolean flag);",
    "  boolean i1Other(boolean flag);",
    "}"
  };

  @TempDir Path dir;

  @Test
  void equalShapesAreEqualPrintedBodies() {
    ProcessorTester t = new ProcessorTester(dir).file("shapes.abi.json", MODULE_JSON);
    t.compileClean(source("Shapes", MODULE));
    StubModel model = t.model();
    Sharing sharing = assertShapesStandForBodies(model);
    // What is shared, and what is not: one body per structure of equal constant pattern.
    assertThat(sharing.groups())
        .containsExactly(
            List.of("same1", "same2", "dynamic"),
            List.of("dict1", "dict2"),
            List.of("seq1", "seq2"),
            List.of("rows1", "rows2"),
            List.of("grid1", "grid2"),
            List.of("x", "aMuchLongerFunctionName"),
            List.of("i1Flag", "i1Other"));
  }

  @Test
  void everyCorpusSignatureBoundThriceSharesExactlyWhatPrintsAlike() {
    List<JsonNode> lines = SharedData.jsonLines("reflection-corpus.jsonl");
    List<JavaFileObject> sources = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String abi = SharedData.compact(lines.get(i).get("abi"));
      String function = lines.get(i).get("function").asText();
      Generated g =
          InterfaceSource.generate(
              String.format("C%02d", i),
              function,
              abi,
              AbiJson.parseFunction(abi),
              Perturbation.NONE,
              i % 2 == 0);
      if (!g.binds() || InterfaceSource.unsupported(AbiJson.parseFunction(abi)).isPresent()) {
        continue;
      }
      sources.add(thrice(g));
    }
    ProcessorTester t = new ProcessorTester(dir);
    t.compile(sources.toArray(new JavaFileObject[0]));
    assertThat(t.models).isNotEmpty();
    int shared = 0;
    for (StubModel model : t.models) {
      shared += assertShapesStandForBodies(model).groups().size();
    }
    // Each signature thrice: most bodies are shared (SIP and PyDM plans and a few others keep
    // their own).
    assertWithMessage("groups").that(shared).isGreaterThan(t.models.size() / 2);
  }

  /**
   * The interface of {@code g} with its method declared three times: as generated, and bound to two
   * other function names (a short and a long one) of the same signature.
   */
  private static JavaFileObject thrice(Generated g) {
    String text = g.text();
    int start = text.indexOf("  @IreeFunction(value = ");
    int end = text.indexOf(");", text.indexOf("/*method*/", start)) + 2;
    String method = text.substring(start, end);
    String value = method.substring(0, method.indexOf(", abi = "));
    String name = method.substring(method.indexOf("/*method*/"));
    name = name.substring(0, name.indexOf('('));
    StringBuilder more = new StringBuilder();
    for (String suffix : List.of("Again", "AndAgainWithAMuchLongerName")) {
      more.append('\n')
          .append(
              method
                  .replace(value, value.substring(0, value.length() - 1) + suffix + "\"")
                  .replace(name + "(", name + suffix + "("));
    }
    return com.google.testing.compile.JavaFileObjects.forSourceString(
        "test." + g.className(), text.substring(0, end) + more + text.substring(end));
  }

  /** The methods that call one body, by method name, in order. */
  private record Sharing(List<List<String>> groups) {}

  /**
   * Asserts, for every pair of methods of {@code model}, that equal shapes print equal bodies and
   * equal bodies have equal shapes, and for every method that calls a shared body, that it is the
   * body its own plan prints and it passes the constants that body would name.
   */
  static Sharing assertShapesStandForBodies(StubModel model) {
    StubScope scope = new StubScope(model);
    StubLayout layout = StubLayout.of(model, scope);
    Map<String, TypeName> types = new HashMap<>();
    List<CallPlan> functions = model.functions();
    for (int i = 0; i < functions.size(); i++) {
      layout.constants(i).constants().forEach(c -> types.put(c.name(), c.type()));
    }
    int n = functions.size();
    BodyShape[] shapes = new BodyShape[n];
    String[] text = new String[n];
    for (int i = 0; i < n; i++) {
      shapes[i] = BodyShape.of(functions.get(i), layout.constants(i));
      SharedBodies.Printed own = printAs(layout, scope, types, functions, i, i, true);
      text[i] = own == null ? null : own.text();
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (i == j || text[i] == null) {
          continue;
        }
        String pair = functions.get(i).methodName() + " and " + functions.get(j).methodName();
        boolean sameShape =
            shapes[i] != null && shapes[j] != null && shapes[i].key().equals(shapes[j].key());
        // j's body printed in i's parameter names, as a body they share would be.
        SharedBodies.Printed asI = printAs(layout, scope, types, functions, j, i, true);
        String textAsI = asI == null ? null : asI.text();
        if (sameShape) {
          assertWithMessage("%s: equal shapes, printed bodies", pair)
              .that(textAsI)
              .isEqualTo(text[i]);
        }
        if (text[i].equals(textAsI)) {
          assertWithMessage("%s: equal printed bodies, shapes", pair).that(sameShape).isTrue();
          SharedBodies.Use a = layout.shared(i);
          SharedBodies.Use b = layout.shared(j);
          assertWithMessage("%s: equal printed bodies share one", pair).that(a).isNotNull();
          assertWithMessage("%s: equal printed bodies share one", pair).that(b).isNotNull();
          assertWithMessage("%s: equal printed bodies share one", pair)
              .that(a.body())
              .isSameInstanceAs(b.body());
        }
      }
    }
    Map<SharedBodies.Body, List<String>> groups = new java.util.LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      SharedBodies.Use use = layout.shared(i);
      if (use == null) {
        continue;
      }
      String method = functions.get(i).methodName();
      int lead = use.body().members().get(0);
      SharedBodies.Printed own =
          printAs(layout, scope, types, functions, i, lead, use.body().named());
      assertWithMessage("%s calls a shared body; its own", method).that(own).isNotNull();
      assertWithMessage("%s: the shared body is its own, in the first method's names", method)
          .that(use.body().code().toString())
          .isEqualTo(own.code().toString());
      assertWithMessage("%s: constants passed", method)
          .that(use.constants())
          .isEqualTo(own.constants());
      assertWithMessage("%s: names passed", method)
          .that(use.names())
          .isEqualTo(use.body().named() ? SharedBodies.pathNames(functions.get(i)) : List.of());
      groups.computeIfAbsent(use.body(), b -> new ArrayList<>()).add(method);
    }
    return new Sharing(List.copyOf(groups.values()));
  }

  /**
   * The body of function {@code i} printed for sharing in the parameter names of function {@code
   * as}; null when it cannot be shared or the two take different numbers of parameters.
   */
  private static SharedBodies.Printed printAs(
      StubLayout layout,
      StubScope scope,
      Map<String, TypeName> types,
      List<CallPlan> functions,
      int i,
      int as,
      boolean named) {
    CallPlan plan = functions.get(i);
    CallPlan other = functions.get(as);
    if (!(plan instanceof CallPlan.Plain)
        || plan.parameters().size() != other.parameters().size()) {
      return null;
    }
    return SharedBodies.print(
        plan, other, named, scope, layout.reservedForLocals(), layout.constants(i), types);
  }
}
