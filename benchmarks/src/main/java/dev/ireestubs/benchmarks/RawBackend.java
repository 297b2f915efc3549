package dev.ireestubs.benchmarks;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostFunction;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vm.VmList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A backend that runs a function's body and checks nothing: what a call through it costs is the
 * caller's own marshalling (a stub's, the dynamic invoker's or hand-written code's). Its functions
 * describe themselves (name, calling convention, reflection) as the {@link HostModule} it is made
 * from does, so stubs bind to it as to any backend.
 */
final class RawBackend implements ModuleBackend {

  private final HostModule described;
  private final Map<String, HostFunction> bodies;

  /**
   * @param described a module with the same functions, which gives their reflection
   * @param bodies the bodies by qualified name ({@code bench.add})
   */
  private RawBackend(HostModule described, Map<String, HostFunction> bodies) {
    this.described = described;
    this.bodies = Map.copyOf(bodies);
  }

  /**
   * Module {@code name} either way a benchmark compares: as a {@link HostModule}, which checks
   * arguments and results against each signature, or as a raw backend over that module, which runs
   * the same bodies and checks nothing.
   */
  static Builder builder(String name) {
    return new Builder(name);
  }

  /** Collects a module's functions once for both backends. */
  static final class Builder {
    private final String module;
    private final HostModule.Builder host;
    private final Map<String, HostFunction> bodies = new HashMap<>();

    private Builder(String module) {
      this.module = module;
      this.host = HostModule.builder(module);
    }

    /** Adds function {@code name} with its signature and body. */
    Builder function(String name, FunctionSignature signature, HostFunction body) {
      host.function(name, signature, body);
      bodies.put(module + "." + name, body);
      return this;
    }

    /** The raw backend if {@code raw}, else the host module. */
    ModuleBackend build(boolean raw) {
      HostModule described = host.build();
      return raw ? new RawBackend(described, bodies) : described;
    }
  }

  @Override
  public Optional<BackendFunction> lookup(String qualifiedName) {
    HostFunction body = bodies.get(qualifiedName);
    return described.lookup(qualifiedName).map(f -> body == null ? f : new Raw(f, body));
  }

  @Override
  public List<String> functionNames() {
    return described.functionNames();
  }

  @Override
  public void close() {
    described.close();
  }

  /** One function: its description from the host module, its body called directly. */
  private static final class Raw implements BackendFunction {
    private final BackendFunction described;
    private final HostFunction body;

    Raw(BackendFunction described, HostFunction body) {
      this.described = described;
      this.body = body;
    }

    @Override
    public String qualifiedName() {
      return described.qualifiedName();
    }

    @Override
    public String callingConvention() {
      return described.callingConvention();
    }

    @Override
    public Map<String, String> reflection() {
      return described.reflection();
    }

    @Override
    public VmList invoke(VmList arguments) {
      return body.call(arguments);
    }
  }
}
