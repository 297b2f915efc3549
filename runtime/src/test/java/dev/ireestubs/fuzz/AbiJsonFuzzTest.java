package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;
import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import java.util.Map;
import java.util.Optional;

/**
 * Fuzz targets for the {@code iree.abi} JSON parser and printer ({@link AbiJson}): a function
 * object and a module file. Each input is parsed within the cost bounds of {@link FuzzContract}; a
 * refusal is an {@code AbiParseException}; what parses prints to text that parses back to the same
 * signature and prints the same again.
 */
class AbiJsonFuzzTest {

  @FuzzTest
  @DictionaryEntries({
    "\"a\"",
    "\"r\"",
    "\"v\"",
    "\"ndarray\"",
    "\"slist\"",
    "\"stuple\"",
    "\"sdict\"",
    "\"named\"",
    "\"py_homogeneous_list\"",
    "\"i32\"",
    "\"f32\"",
    "\"i1\"",
    "\"bf16\"",
    "\"unknown\"",
    "\"pytuple\"",
    "null",
    "1e999",
    "-0",
    "\\u0000"
  })
  void function(byte[] data) {
    String text = FuzzContract.text(data);
    Optional<FunctionSignature> parsed =
        bounded(
            "AbiJson.parseFunction",
            data.length,
            () -> refusedOr(() -> AbiJson.parseFunction(text)));
    parsed.ifPresent(
        s ->
            Roundtrips.check(
                "iree.abi JSON", data.length, s, AbiJson::print, AbiJson::parseFunction));
  }

  @FuzzTest
  @DictionaryEntries({
    "{\"a\":[],\"r\":[]}",
    "\"a\"",
    "\"r\"",
    "\"ndarray\"",
    "\"sdict\"",
    "\"stuple\"",
    "\"named\"",
    "\"i32\"",
    "\"f32\"",
    "null",
    "1e999"
  })
  void module(byte[] data) {
    String text = FuzzContract.text(data);
    Optional<Map<String, FunctionSignature>> parsed =
        bounded(
            "AbiJson.parseModule", data.length, () -> refusedOr(() -> AbiJson.parseModule(text)));
    parsed.ifPresent(
        m ->
            Roundtrips.check(
                "iree.abi JSON module",
                data.length,
                m,
                AbiJson::printModule,
                AbiJson::parseModule));
  }
}
