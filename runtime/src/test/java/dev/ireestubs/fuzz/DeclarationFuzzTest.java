package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;
import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.MlirTypes;
import java.util.Optional;

/**
 * Fuzz target for the {@code iree.abi.declaration} parser ({@link Declaration}) and the MLIR type
 * parser under it. Each input is parsed within the cost bounds of {@link FuzzContract}; a refusal
 * is an {@code AbiParseException}. What parses prints to the canonical text, which parses back to
 * an equal declaration and prints the same again; every parameter's type prints back as its type
 * text's meaning; and the signature prints as {@code iree.abi} JSON that parses (the JSON printer
 * is total over what any parser returns).
 */
class DeclarationFuzzTest {

  @FuzzTest
  @DictionaryEntries({
    "sync func @",
    "async func @",
    "(%input0: ",
    ") -> (%output0: ",
    "tensor<",
    "?x",
    "xf32>",
    "!hal.buffer_view",
    "!hal.fence",
    "!util.list<?>",
    "!vm.list<",
    "tuple<",
    "complex<f32>",
    "index",
    "i1",
    "si8",
    "ui64",
    "bf16",
    "f8E4M3FN",
    "{iree.abi.name = \"x\"}",
    "{iree.abi.output = 1 : index}",
    "#enc",
    "\\\"",
    "memref<4xf32>",
    "*x"
  })
  void declaration(byte[] data) {
    String text = FuzzContract.text(data);
    Optional<Declaration> parsed =
        bounded("Declaration.parse", data.length, () -> refusedOr(() -> Declaration.parse(text)));
    parsed.ifPresent(d -> check(d, data.length));
  }

  private static void check(Declaration d, long inputBytes) {
    Roundtrips.check("declaration", inputBytes, d, Declaration::print, Declaration::parse);
    bounded(
        "parameter types and attributes",
        inputBytes,
        () -> {
          for (Declaration.Parameter p : d.arguments()) {
            Roundtrips.requireEqual(p.type(), MlirTypes.parse(p.typeText()), p.typeText());
            p.attributeMap();
          }
        });
    FunctionSignature signature = d.toSignature();
    String json = bounded("print as iree.abi JSON", inputBytes, () -> AbiJson.print(signature));
    bounded("parse that JSON", inputBytes, () -> AbiJson.parseFunction(json));
  }
}
