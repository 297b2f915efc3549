package dev.ireestubs.processor;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A backend whose functions look exactly like a compiled module's exports (name, calling
 * convention, reflection attributes, as {@link dev.ireestubs.vmfb.VmfbReader} read them), with Java
 * bodies: what the IREE runtime backend shows a stub, without the runtime. Records the argument
 * lists it was called with.
 */
public final class CompiledModuleBackend implements ModuleBackend {

  private final Map<String, BackendFunction> functions = new LinkedHashMap<>();
  public final List<String> calls = new ArrayList<>();

  public CompiledModuleBackend(VmfbModule module, Map<String, UnaryOperator<VmList>> bodies) {
    for (VmfbExport export : module.exports()) {
      String qualified = module.name() + "." + export.name();
      UnaryOperator<VmList> body = bodies.getOrDefault(export.name(), args -> VmList.variant(0));
      functions.put(
          qualified,
          new BackendFunction() {
            @Override
            public String qualifiedName() {
              return qualified;
            }

            @Override
            public String callingConvention() {
              return export.callingConvention().orElse("");
            }

            @Override
            public Map<String, String> reflection() {
              return export.reflection().asMap();
            }

            @Override
            public VmList invoke(VmList arguments) {
              calls.add(export.name() + "/" + arguments.size());
              return body.apply(arguments);
            }
          });
    }
  }

  @Override
  public Optional<BackendFunction> lookup(String qualifiedName) {
    return Optional.ofNullable(functions.get(qualifiedName));
  }

  @Override
  public List<String> functionNames() {
    return functions.keySet().stream().sorted().collect(java.util.stream.Collectors.toList());
  }

  @Override
  public void close() {}
}
