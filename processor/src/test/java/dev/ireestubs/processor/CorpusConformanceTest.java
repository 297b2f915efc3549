package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.processor.InterfaceSource.Expected;
import dev.ireestubs.processor.InterfaceSource.Generated;
import dev.ireestubs.processor.InterfaceSource.Perturbation;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.testing.SharedData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code iree.abi} object of the real-data corpus: an interface written from the signature
 * binds (or, for a type record outside the spec, is rejected naming it), and the same interface
 * with one deliberate mistake is rejected with the precise error on the right line.
 */
class CorpusConformanceTest {

  @TempDir Path dir;

  private record Row(int index, String function, String abi, FunctionSignature signature) {}

  private static List<Row> corpus() {
    List<JsonNode> lines = SharedData.jsonLines("reflection-corpus.jsonl");
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String abi = SharedData.compact(lines.get(i).get("abi"));
      rows.add(new Row(i, lines.get(i).get("function").asText(), abi, AbiJson.parseFunction(abi)));
    }
    return rows;
  }

  @Test
  void everyCorpusSignatureBindsAndEveryPerturbationIsRejected() {
    List<Row> rows = corpus();
    assertThat(rows).isNotEmpty();

    // 1. As written: binds, or names the unsupported record.
    ProcessorTester good = new ProcessorTester(dir);
    List<Generated> sources = new ArrayList<>();
    Map<String, String> unsupported = new LinkedHashMap<>();
    for (Row row : rows) {
      String name = String.format("C%02d", row.index());
      sources.add(
          InterfaceSource.generate(
              name,
              row.function(),
              row.abi(),
              row.signature(),
              Perturbation.NONE,
              row.index() % 2 == 0));
      InterfaceSource.unsupported(row.signature()).ifPresent(u -> unsupported.put(name, u));
    }
    Compilation c = good.compile(files(sources));
    for (Generated g : sources) {
      List<String> errors = errorsIn(c, g.file());
      if (unsupported.containsKey(g.className())) {
        assertWithMessage("%s\n%s", g.className(), g.text()).that(errors).isNotEmpty();
        assertThat(c).hadErrorContaining("[IreeUnsupportedType]").inFile(g.file());
        assertWithMessage("%s: %s", g.className(), errors)
            .that(
                errors.stream()
                    .anyMatch(
                        e ->
                            e.startsWith("[IreeUnsupportedType]")
                                && e.contains(unsupported.get(g.className()))))
            .isTrue();
      } else {
        assertWithMessage("%s\n%s", g.className(), g.text()).that(errors).isEmpty();
      }
    }
    assertThat(good.models).hasSize(rows.size() - unsupported.size());
    int records = 0;
    for (StubModel m : good.models) {
      CallPlan f = m.functions().get(0);
      assertThat(m.functions()).hasSize(1);
      assertThat(f.parameters()).hasSize(f.signature().arguments().size());
      for (ParameterModel p : f.parameters()) {
        records += checkDescriptorOrder(p.binding());
      }
      if (f.result() instanceof ResultModel.Inlined) {
        records += checkDescriptorOrder(((ResultModel.Inlined) f.result()).binding());
      } else if (f.result() instanceof ResultModel.Single) {
        records += checkDescriptorOrder(((ResultModel.Single) f.result()).binding());
      }
    }

    // 2. One deliberate mistake each: rejected with the precise error, on the right line.
    ProcessorTester bad = new ProcessorTester(dir);
    List<Generated> perturbed = new ArrayList<>();
    Map<Perturbation, Integer> kinds = new EnumMap<>(Perturbation.class);
    for (Row row : rows) {
      if (InterfaceSource.unsupported(row.signature()).isPresent()) {
        continue;
      }
      // Two mistakes per signature: the most specific one it allows, and one of the others.
      List<Perturbation> options = InterfaceSource.perturbationsFor(row.signature());
      List<Perturbation> chosen =
          List.of(options.get(0), options.get(1 + row.index() % (options.size() - 1)));
      for (int k = 0; k < chosen.size(); k++) {
        Perturbation p = chosen.get(k);
        kinds.merge(p, 1, Integer::sum);
        perturbed.add(
            InterfaceSource.generate(
                String.format("P%02d%s", row.index(), k == 0 ? "a" : "b"),
                row.function(),
                row.abi(),
                row.signature(),
                p,
                (row.index() + k) % 2 == 1));
      }
    }
    Compilation cb = bad.compile(files(perturbed));
    for (Generated g : perturbed) {
      List<Diagnostic<? extends JavaFileObject>> errors = diagnosticsIn(cb, g.file());
      assertWithMessage("%s errors: %s\n%s", g.className(), messages(errors), g.text())
          .that(errors)
          .hasSize(g.errors().size());
      String[] lines = g.text().split("\n", -1);
      for (Expected e : g.errors()) {
        assertThat(cb)
            .hadErrorContaining(e.fragments().get(0))
            .inFile(g.file())
            .onLineContaining(e.line());
        boolean found = false;
        for (Diagnostic<? extends JavaFileObject> d : errors) {
          String message = d.getMessage(null);
          long line = d.getLineNumber();
          if (e.fragments().stream().allMatch(message::contains)
              && line >= 1
              && lines[(int) line - 1].contains(e.line())) {
            found = true;
          }
        }
        assertWithMessage(
                "%s: no error with %s on the line with %s; errors: %s",
                g.className(), e.fragments(), e.line(), messages(errors))
            .that(found)
            .isTrue();
      }
    }
    assertThat(bad.models).isEmpty();

    Map<String, Integer> byTag = new TreeMap<>();
    unsupported.values().forEach(u -> byTag.merge(tagOf(u), 1, Integer::sum));
    System.out.println(
        "processor corpus conformance: "
            + rows.size()
            + " iree.abi signatures; "
            + good.models.size()
            + " bind ("
            + records
            + " sdict records checked for descriptor order), "
            + unsupported.size()
            + " rejected as unsupported "
            + byTag
            + "; "
            + perturbed.size()
            + " perturbed interfaces rejected with the expected error on the expected line "
            + kinds);
  }

  /** Asserts sdict records list components in key order; returns how many sdict records. */
  private static int checkDescriptorOrder(ValueBinding b) {
    int n = 0;
    if (b instanceof RecordBinding) {
      RecordBinding r = (RecordBinding) b;
      if (r.type() instanceof AbiType.Dict) {
        n++;
        AbiType.Dict d = (AbiType.Dict) r.type();
        assertThat(r.components().stream().map(ComponentBinding::key).collect(Collectors.toList()))
            .containsExactlyElementsIn(d.keys())
            .inOrder();
        // The test sources declare components in reverse key order.
        List<String> accessors =
            r.components().stream().map(ComponentBinding::accessor).collect(Collectors.toList());
        Collections.reverse(accessors);
        assertThat(r.constructorOrder()).containsExactlyElementsIn(accessors).inOrder();
      }
      for (ComponentBinding c : r.components()) {
        n += checkDescriptorOrder(c.binding());
      }
    } else if (b instanceof ListBinding) {
      n += checkDescriptorOrder(((ListBinding) b).element());
    } else if (b instanceof MapBinding) {
      for (ValueBinding v : ((MapBinding) b).values()) {
        n += checkDescriptorOrder(v);
      }
    }
    return n;
  }

  private static String tagOf(String source) {
    String s = source.replaceAll("^\\[\"([^\"]*)\".*$", "$1");
    return s.replace("\"", "");
  }

  private static JavaFileObject[] files(List<Generated> generated) {
    return generated.stream().map(Generated::file).toArray(JavaFileObject[]::new);
  }

  private static List<Diagnostic<? extends JavaFileObject>> diagnosticsIn(
      Compilation c, JavaFileObject file) {
    return c.errors().stream()
        .filter(d -> d.getSource() != null && d.getSource().toUri().equals(file.toUri()))
        .collect(Collectors.toList());
  }

  private static List<String> errorsIn(Compilation c, JavaFileObject file) {
    return diagnosticsIn(c, file).stream()
        .map(d -> d.getMessage(null))
        .collect(Collectors.toList());
  }

  private static List<String> messages(List<Diagnostic<? extends JavaFileObject>> ds) {
    return ds.stream()
        .map(d -> d.getLineNumber() + ": " + d.getMessage(null))
        .collect(Collectors.toList());
  }

  @Test
  void unsupportedRecordsOfTheCorpusAreNamed() {
    // The corpus holds pre-spec tags; each must be found by the generator's own check, so the
    // test above cannot pass by accident with zero unsupported rows.
    List<String> tags =
        corpus().stream()
            .map(r -> InterfaceSource.unsupported(r.signature()))
            .flatMap(Optional::stream)
            .map(CorpusConformanceTest::tagOf)
            .collect(Collectors.toList());
    assertThat(tags)
        .containsAtLeast("sdict_kwargs", "py_uniform_list", "pytuple", "py_uniform_dict");
  }
}
