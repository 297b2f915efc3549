package it.jackson;

import com.fasterxml.jackson.core.json.PackageVersion;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.VmList;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Calls the stub on a host module whose function is registered with the module file's JSON, parsed
 * at run time, with an old jackson-core on the class path.
 */
public final class App {
  private App() {}

  public static void main(String[] args) throws IOException {
    System.out.println("jackson-core on the class path: " + PackageVersion.VERSION);
    String json;
    try (InputStream in = App.class.getResourceAsStream("/adder.abi.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String add = json.substring(json.indexOf(':') + 1, json.lastIndexOf('}')).trim();
    try (HostModule module =
        HostModule.builder("module")
            .function(
                "add",
                add,
                arguments -> {
                  float[] a = FloatArray.fromBufferView(arguments.getBufferView(0)).toArray();
                  float[] b = FloatArray.fromBufferView(arguments.getBufferView(1)).toArray();
                  float[] sum = new float[a.length];
                  for (int i = 0; i < a.length; i++) {
                    sum[i] = a[i] + b[i];
                  }
                  return VmList.of(FloatArray.of(sum, 4).asBufferView());
                })
            .build()) {
      Adder adder = new Iree_Adder(module);
      FloatArray sum =
          adder.add(
              FloatArray.of(new float[] {1, 2, 3, 4}, 4),
              FloatArray.of(new float[] {10, 20, 30, 40}, 4));
      System.out.println("sum: " + Arrays.toString(sum.toArray()));
    }
  }
}
