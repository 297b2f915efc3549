package dev.ireestubs.example;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The example app. For now it reads a module's {@code iree.abi} reflection (a JSON resource of
 * the kind TF and XLA importers emitted) and prints what each function takes and returns, and how
 * IREE passes it; typed stubs and running models come with the processor and runtime issues.
 */
public final class ExampleApp {
  private ExampleApp() {}

  public static void main(String[] args) {
    String resource = "classifier.abi.json";
    Map<String, FunctionSignature> module = AbiJson.parseModule(readResource(resource));
    System.out.println("iree-stubs example app: reflection of module 'classifier' (" + resource + ")");
    for (Map.Entry<String, FunctionSignature> e : module.entrySet()) {
      FunctionSignature sig = e.getValue();
      System.out.println();
      System.out.println("  " + e.getKey() + sig);
      System.out.println("    VM arguments: " + sig.vmArgumentCount() + ", VM results: " + sig.vmResults().size()
          + (sig.hasInlinedResults() ? " (one structured result, inlined: its children are the raw results)" : ""));
      for (int i = 0; i < sig.arguments().size(); i++) {
        AbiType t = sig.arguments().get(i);
        System.out.println("    argument " + i + ": " + describe(t));
      }
      System.out.println("    canonical iree.abi: " + AbiJson.print(sig));
    }
  }

  private static String describe(AbiType t) {
    if (t instanceof AbiType.Named) {
      AbiType.Named n = (AbiType.Named) t;
      return "keyword '" + n.name() + "', " + describe(n.type());
    }
    if (t instanceof AbiType.Dict) {
      return "a record passed as a VM list of its values in key order " + ((AbiType.Dict) t).keys();
    }
    if (t instanceof AbiType.NdArray) {
      AbiType.NdArray a = (AbiType.NdArray) t;
      return "a buffer view of " + a.element() + " (HAL element type 0x"
          + a.element().halCode().map(Integer::toHexString).orElse("?") + "), shape " + a.shape();
    }
    if (t instanceof AbiType.HomogeneousList) {
      return "a VM list of any length of " + ((AbiType.HomogeneousList) t).element();
    }
    return t.toString();
  }

  private static String readResource(String name) {
    try (InputStream in = ExampleApp.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
