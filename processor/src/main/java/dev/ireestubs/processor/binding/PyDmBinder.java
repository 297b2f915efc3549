package dev.ireestubs.processor.binding;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.JavaType;
import dev.ireestubs.processor.diagnostics.Location;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.RefBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.ScalarBinding;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.source.FunctionSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds a method declared {@code @IreeFunction(convention = PYDM)}: an IREEPyDM function has no
 * reflection, so its calling convention follows from the Java types (primitives are unboxed values,
 * everything else an object record), and is checked against the module's own calling convention
 * when the module is known.
 */
final class PyDmBinder {

  private final Reporter report;

  PyDmBinder(Reporter report) {
    this.report = report;
  }

  /** The plan of {@code method}, or empty after reporting why not. */
  Optional<CallPlan> bind(Declaration.Method method, FunctionSource.PyDm source) {
    String functionName = source.functionName();
    boolean ok = true;
    List<ParameterModel> parameters = new ArrayList<>();
    List<AbiType> arguments = new ArrayList<>();
    for (Declaration.Parameter p : method.parameters()) {
      String path = functionName + ": " + p.name();
      ValueBinding binding = binding(p.type(), path, p.location());
      if (binding == null) {
        ok = false;
        continue;
      }
      arguments.add(vmLevel(binding.type()));
      parameters.add(new ParameterModel(p.name(), p.type().typeName(), path, binding));
    }
    JavaType returnType = method.returnType();
    ResultModel result;
    AbiType value;
    if (returnType instanceof JavaType.Void) {
      result = new ResultModel.Void();
      value = new AbiType.Any(); // whatever the function returns is read and dropped
    } else {
      ValueBinding binding = binding(returnType, functionName + ": result", method.location());
      if (binding == null) {
        return Optional.empty();
      }
      result = new ResultModel.Single(returnType.typeName(), binding);
      value = vmLevel(binding.type());
    }
    if (!ok) {
      return Optional.empty();
    }
    FunctionSignature signature =
        FunctionSignature.of(
            arguments,
            List.of(new AbiType.Scalar(ElementType.I32), value),
            ReflectionFormat.CALLING_CONVENTION);
    if (source.moduleConvention().isPresent()
        && !agrees(signature, source.moduleConvention().get(), functionName, method)) {
      return Optional.empty();
    }
    return Optional.of(
        new CallPlan.PyDm(
            new CallPlan.Method(
                method.name(), functionName, signature, source.description(), parameters),
            result));
  }

  private boolean agrees(
      FunctionSignature signature,
      String moduleConvention,
      String functionName,
      Declaration.Method method) {
    List<String> problems = CallingConvention.parse(moduleConvention).mismatches(signature);
    if (problems.isEmpty()) {
      return true;
    }
    report.error(
        Tag.SIGNATURE_MISMATCH,
        functionName
            + ": as a PyDM function method "
            + method.name()
            + " is called as "
            + CallingConvention.expectedFor(signature).map(Object::toString).orElse("(mixed)")
            + " (primitives are unboxed values, other types object records, and the results"
            + " are the exception_result then the value), but the module's calling convention"
            + " is "
            + moduleConvention
            + ": "
            + String.join("; ", problems)
            + "; change the Java types to match",
        method.location());
    return false;
  }

  /**
   * The type as the calling convention sees it ({@code i1}, {@code i8} and {@code i16} travel as
   * {@code i32} values), which is what the module's reflection, if any, also states.
   */
  private static AbiType vmLevel(AbiType type) {
    return CallingConvention.typeOf(type.vmKind().orElse(VmKind.REF));
  }

  /**
   * Primitives are unboxed values of their width; other types object records. Null when the type is
   * not one of them (reported) or does not resolve (the declaration step's to report).
   */
  private ValueBinding binding(JavaType type, String path, Location site) {
    if (type instanceof JavaType.Unresolved) {
      return null;
    }
    if (type instanceof JavaType.Primitive primitive) {
      Class<?> p = primitive.type();
      Optional<ElementType> element = JavaMapping.element(p);
      if (element.isPresent()) {
        return new ScalarBinding(new AbiType.Scalar(element.get()), type.typeName(), false, path);
      }
    }
    if (type instanceof JavaType.Declared declared) {
      String qualified = declared.qualifiedName();
      if (qualified.equals("java.lang.String") || qualified.equals("java.lang.CharSequence")) {
        report.error(
            Tag.UNSUPPORTED_TYPE,
            path
                + " is a "
                + qualified
                + ", but PyDM's Str objects have no lowering in IREE yet (TODO in the lowering"
                + " notes); pass the text another way",
            site);
        return null;
      }
      return new RefBinding(AbiType.Ref.any(), type.typeName(), path);
    }
    if (type instanceof JavaType.ArrayOf arrayOf) {
      JavaType component = arrayOf.component();
      boolean bytes =
          component instanceof JavaType.Primitive primitive && primitive.type() == byte.class;
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is a "
              + type.typeName()
              + (bytes
                  ? ", but PyDM's Bytes objects have no lowering in IREE yet"
                  : ", but a PyDM object is a value, a List, a PyTuple or a PyObject")
              + "; use a List or PyTuple",
          site);
      return null;
    }
    report.error(
        Tag.UNSUPPORTED_TYPE,
        path
            + " is a "
            + type.typeName()
            + ", which no PyDM value is; use a primitive or an object type",
        site);
    return null;
  }
}
