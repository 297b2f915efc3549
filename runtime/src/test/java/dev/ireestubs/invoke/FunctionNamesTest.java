package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.host.HostModule;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A function is looked up as {@code module.function}, or by its name alone when that is unique. */
class FunctionNamesTest {

  private static final String ADD = "{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"]}";

  private static HostModule module() {
    return HostModule.builder("module")
        .function(
            "add",
            ADD,
            args -> VmList.of(VmValue.i32(args.getValue(0).asI32() + args.getValue(1).asI32())))
        .function("add$async", ADD, args -> VmList.of(VmValue.i32(0)))
        .build();
  }

  @Test
  void aNameAloneFindsTheOneModuleThatExportsIt() {
    try (HostModule module = module()) {
      BackendFunction add = module.function("add");
      assertThat(add).isSameInstanceAs(module.function("module.add"));
      assertThat(module.lookup("add$async")).isEqualTo(module.lookup("module.add$async"));
      assertThat(add.invoke(VmList.of(VmValue.i32(2), VmValue.i32(3))).getValue(0).asI32())
          .isEqualTo(5);
    }
  }

  @Test
  void anUnknownNameListsTheLoadedFunctions() {
    try (HostModule module = module()) {
      IreeFunctionNotFoundException e =
          assertThrows(IreeFunctionNotFoundException.class, () -> module.function("sub"));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo("no function 'sub' is loaded; loaded: module.add, module.add$async");
      assertThat(e.qualifiedName()).isEqualTo("sub");
      assertThat(module.lookup("other.add")).isEmpty();
      assertThat(module.lookup("dd")).isEmpty();
    }
  }

  @Test
  void aNameSeveralModulesExportIsRefusedNamingThem() {
    ModuleBackend two = new TwoModules();
    assertThat(two.lookup("f")).isEmpty();
    IreeFunctionNotFoundException e =
        assertThrows(IreeFunctionNotFoundException.class, () -> two.function("f"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "function 'f' is exported by several loaded modules (a.f, b.f): name one as"
                + " module.function");
    assertThat(ModuleBackend.qualify("g", two.functionNames())).isEqualTo("b.g");
    assertThat(ModuleBackend.qualify("a.f", two.functionNames())).isEqualTo("a.f");
  }

  /** Two modules that both export {@code f}; only names, no functions. */
  private static final class TwoModules implements ModuleBackend {
    @Override
    public Optional<BackendFunction> lookup(String name) {
      return Optional.empty(); // names only: every lookup misses, as for "f" it must
    }

    @Override
    public List<String> functionNames() {
      return List.of("a.f", "b.f", "b.g");
    }

    @Override
    public void close() {}
  }
}
