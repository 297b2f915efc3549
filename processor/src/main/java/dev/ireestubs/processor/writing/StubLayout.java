package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.names.UniqueNames;
import dev.ireestubs.processor.printing.Code;
import dev.ireestubs.processor.printing.JavaSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Where each part of a stub goes, so that every generated class stays far from the class-file
 * limits (64 KiB of code per method, 65,535 constant-pool entries per class) whatever the module:
 * the signature constants of the functions in nested holder classes, as many as their size needs;
 * the parts of very long lists in holders of their own; and for a module so large that the stub
 * class itself would fill up, the call code too in the holders ({@link #grouped()}), the stub's
 * methods then only delegating to them. It also names the stub's fields, and says which methods
 * share one body ({@link SharedBodies}). An immutable value, built in one go by {@link #of}.
 *
 * @param grouped true when the stub's methods delegate to static methods of the holders
 * @param groups the holders of the functions' constants, in order, and which functions each holds
 * @param functions per function of the model, in its order, where its parts go
 * @param partHolders the holders of the parts of long lists, complete
 * @param fields the stub's fields of bound functions: one per function, or when grouped one array
 * @param reservedForLocals the names no local of a method may take (see {@link
 *     StubScope#reservedForLocals})
 */
record StubLayout(
    boolean grouped,
    List<Group> groups,
    List<FunctionLayout> functions,
    List<JavaSource.TypeDecl> partHolders,
    List<String> fields,
    Set<String> reservedForLocals) {

  /** A holder's class initializer is kept under this many bytes of code. */
  static final int HOLDER_BYTES = 40_000;

  /** A holder's constant pool is kept under this many entries. */
  static final int HOLDER_CONSTANTS = 30_000;

  /** A holder binds at most this many functions (its {@code bind} method's code). */
  static final int HOLDER_FUNCTIONS = 1_000;

  /** Above this many estimated constant-pool entries, the stub's methods delegate to holders. */
  static final int STUB_CONSTANTS = 40_000;

  StubLayout {
    groups = List.copyOf(groups);
    functions = List.copyOf(functions);
    partHolders = List.copyOf(partHolders);
    fields = List.copyOf(fields);
    reservedForLocals = Collections.unmodifiableSet(reservedForLocals);
  }

  /** One holder class and the functions whose constants (and, when grouped, code) it holds. */
  record Group(ClassName holder, List<Integer> functions) {
    Group {
      functions = List.copyOf(functions);
    }
  }

  /**
   * Where one function's parts go.
   *
   * @param holder the holder of its constants (and code, when grouped)
   * @param constants its constants
   * @param shared how its method calls the body it shares, or null when the body is its own
   */
  record FunctionLayout(ClassName holder, FunctionConstants constants, SharedBodies.Use shared) {}

  /** Lays out the stub of {@code model}, allocating the holders' names in {@code scope}. */
  static StubLayout of(StubModel model, StubScope scope) {
    ClassName stub = model.stubName();
    List<CallPlan> plans = model.functions();
    int stubConstants = 0;
    for (CallPlan plan : plans) {
      stubConstants += 6 + 4 * writtenValues(plan);
    }
    boolean grouped = stubConstants > STUB_CONSTANTS;
    List<List<Integer>> members = pack(model, grouped);
    String base = grouped ? "Functions" : "Signatures";
    UniqueNames constantNames = new UniqueNames(Set.of());
    PartHolders partHolders = new PartHolders(stub, scope);
    List<Group> groups = new ArrayList<>();
    List<FunctionConstants> constants = new ArrayList<>(Collections.nCopies(plans.size(), null));
    List<ClassName> holders = new ArrayList<>(Collections.nCopies(plans.size(), null));
    for (int g = 0; g < members.size(); g++) {
      ClassName holder = stub.nestedClass(scope.member(members.size() == 1 ? base : base + g));
      groups.add(new Group(holder, members.get(g)));
      SignatureCode.Shared shared = new SignatureCode.Shared();
      for (int f : members.get(g)) {
        holders.set(f, holder);
        constants.set(
            f,
            FunctionConstants.of(plans.get(f), constantNames::newName, partHolders::place, shared));
      }
    }
    // The fields: one per function, or when grouped one array of them all.
    List<String> fields = new ArrayList<>();
    if (grouped) {
      fields.add(scope.member("functions"));
    } else {
      for (CallPlan f : plans) {
        fields.add(scope.member(f.methodName() + "Function"));
      }
    }
    List<String> memberNames = new ArrayList<>();
    groups.forEach(g -> memberNames.add(g.holder().simpleName()));
    memberNames.addAll(fields);
    Set<String> reservedForLocals = scope.reservedForLocals(memberNames);
    Map<String, TypeName> constantTypes = new HashMap<>();
    for (FunctionConstants c : constants) {
      c.constants().forEach(k -> constantTypes.put(k.name(), k.type()));
    }
    SharedBodies.Use[] shared =
        SharedBodies.of(
            model, scope, reservedForLocals, constants, holders, constantTypes, grouped);
    List<FunctionLayout> functions = new ArrayList<>(plans.size());
    for (int f = 0; f < plans.size(); f++) {
      functions.add(new FunctionLayout(holders.get(f), constants.get(f), shared[f]));
    }
    return new StubLayout(
        grouped, groups, functions, partHolders.holders(), fields, reservedForLocals);
  }

  /** Consecutive functions per holder, each holder within the budgets (by estimate). */
  private static List<List<Integer>> pack(StubModel model, boolean grouped) {
    List<List<Integer>> members = new ArrayList<>();
    List<Integer> current = new ArrayList<>();
    SignatureCode.Cost cost = SignatureCode.Cost.NONE;
    List<CallPlan> functions = model.functions();
    for (int f = 0; f < functions.size(); f++) {
      SignatureCode.Cost c = SignatureCode.estimate(functions.get(f).boundSignature());
      if (grouped) {
        c = c.plus(0, 20 + 10 * writtenValues(functions.get(f)));
      }
      boolean full =
          cost.bytes() + c.bytes() > HOLDER_BYTES
              || cost.constants() + c.constants() > HOLDER_CONSTANTS
              || current.size() == HOLDER_FUNCTIONS;
      if (!current.isEmpty() && full) {
        members.add(current);
        current = new ArrayList<>();
        cost = SignatureCode.Cost.NONE;
      }
      current.add(f);
      cost = cost.plus(c);
    }
    if (!current.isEmpty() || members.isEmpty()) {
      members.add(current);
    }
    return members;
  }

  /** How many values a method's code writes out one by one (a map in one loop counts once). */
  static int writtenValues(CallPlan plan) {
    int n = 1;
    for (ParameterModel p : plan.parameters()) {
      n += writtenValues(p.binding());
    }
    ResultModel result = plan.result();
    if (result instanceof ResultModel.Single single) {
      n += writtenValues(single.binding());
    } else if (result instanceof ResultModel.Inlined inlined) {
      n += writtenValues(inlined.binding());
    }
    return n;
  }

  private static int writtenValues(ValueBinding b) {
    int n = 1;
    if (b instanceof RecordBinding recordBinding) {
      for (ComponentBinding c : recordBinding.components()) {
        n += writtenValues(c.binding());
      }
    } else if (b instanceof ListBinding listBinding) {
      n += writtenValues(listBinding.element());
    } else if (b instanceof MapBinding mapBinding && !mapBinding.hasLeafValues()) {
      for (ValueBinding v : mapBinding.values()) {
        n += writtenValues(v);
      }
    }
    return n;
  }

  /** The constants of function {@code index}. */
  FunctionConstants constants(int index) {
    return functions.get(index).constants();
  }

  /** The holder of function {@code index}'s constants (and code, when grouped). */
  ClassName holderOf(int index) {
    return functions.get(index).holder();
  }

  /** How function {@code index}'s method calls the body it shares, or null when it has its own. */
  SharedBodies.Use shared(int index) {
    return functions.get(index).shared();
  }

  /** The shared bodies that {@code owner} declares (null: the stub itself), in order. */
  List<SharedBodies.Body> sharedBodies(ClassName owner) {
    List<SharedBodies.Body> out = new ArrayList<>();
    for (int i = 0; i < functions.size(); i++) {
      SharedBodies.Use use = functions.get(i).shared();
      if (use != null
          && use.body().members().get(0) == i
          && Objects.equals(use.body().owner(), owner)) {
        out.add(use.body());
      }
    }
    return out;
  }

  /**
   * The holders of part methods while the constants are laid out: filled in order, a new one when
   * the last is full.
   */
  private static final class PartHolders {
    private final ClassName stub;
    private final StubScope scope;
    private final List<ClassName> names = new ArrayList<>();
    private final List<List<JavaSource.Member>> members = new ArrayList<>();
    private int constants;
    private int count;

    PartHolders(ClassName stub, StubScope scope) {
      this.stub = stub;
      this.scope = scope;
    }

    /** Puts {@code part} in a holder; returns how to call it. */
    Code place(SignatureCode.Part part) {
      if (names.isEmpty() || constants + part.cost().constants() > HOLDER_CONSTANTS) {
        names.add(stub.nestedClass(scope.member("SignatureParts")));
        members.add(new ArrayList<>());
        constants = 0;
      }
      ClassName current = names.get(names.size() - 1);
      String name = "part" + count++;
      members
          .get(members.size() - 1)
          .add(
              new JavaSource.MethodDecl(
                  Code.empty(),
                  List.of(),
                  Set.of(Modifier.STATIC),
                  part.type(),
                  name,
                  List.of(),
                  Code.builder().addStatement("$L", part.body()).build()));
      constants += part.cost().constants();
      return Code.of("$T.$N()", current, name);
    }

    /** The holders, once every part is placed. */
    List<JavaSource.TypeDecl> holders() {
      List<JavaSource.TypeDecl> out = new ArrayList<>(names.size());
      for (int i = 0; i < names.size(); i++) {
        out.add(
            JavaSource.holder(
                names.get(i),
                Code.of(
                    "Parts of long lists of the signatures: a method each, to keep methods small.\n"),
                members.get(i)));
      }
      return out;
    }
  }
}
