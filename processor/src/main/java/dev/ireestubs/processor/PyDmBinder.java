package dev.ireestubs.processor;

import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.abi.VmKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * Binds a method declared {@code @IreeFunction(convention = PYDM)}: an IREEPyDM function has no
 * reflection, so its calling convention follows from the Java types (primitives are unboxed
 * values, everything else an object record), and is checked against the module's own calling
 * convention when the module is known.
 */
final class PyDmBinder {

  private final Types types;
  private final Reporter report;

  PyDmBinder(Types types, Reporter report) {
    this.types = types;
    this.report = report;
  }

  /**
   * The model of {@code method}, or empty after reporting why not.
   *
   * @param moduleConvention the export's calling convention when the module is a {@code .vmfb}
   */
  Optional<FunctionModel> bind(
      ExecutableElement method,
      ExecutableType methodType,
      String functionName,
      Optional<String> moduleConvention,
      String source) {
    boolean ok = true;
    List<ParameterModel> parameters = new ArrayList<>();
    List<AbiType> arguments = new ArrayList<>();
    List<? extends VariableElement> params = method.getParameters();
    for (int i = 0; i < params.size(); i++) {
      TypeMirror type = methodType.getParameterTypes().get(i);
      String name = params.get(i).getSimpleName().toString();
      String path = functionName + ": " + name;
      ValueBinding binding = binding(type, path, params.get(i));
      if (binding == null) {
        ok = false;
        continue;
      }
      arguments.add(vmLevel(binding.type()));
      parameters.add(new ParameterModel(name, TypeName.get(type), path, binding));
    }
    TypeMirror returnType = methodType.getReturnType();
    ResultModel result;
    AbiType value;
    if (returnType.getKind() == TypeKind.VOID) {
      result = new ResultModel.Void();
      value = new AbiType.Any(); // whatever the function returns is read and dropped
    } else {
      ValueBinding binding = binding(returnType, functionName + ": result", method);
      if (binding == null) {
        return Optional.empty();
      }
      result = new ResultModel.Single(TypeName.get(returnType), binding);
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
    if (moduleConvention.isPresent()) {
      List<String> problems = CallingConvention.parse(moduleConvention.get()).mismatches(signature);
      if (!problems.isEmpty()) {
        report.error(
            Tag.SIGNATURE_MISMATCH,
            functionName
                + ": as a PyDM function method "
                + method.getSimpleName()
                + " is called as "
                + CallingConvention.expectedFor(signature).map(Object::toString).orElse("(mixed)")
                + " (primitives are unboxed values, other types object records, and the results"
                + " are the exception_result then the value), but the module's calling convention"
                + " is "
                + moduleConvention.get()
                + ": "
                + String.join("; ", problems)
                + "; change the Java types to match",
            method);
        return Optional.empty();
      }
    }
    return Optional.of(
        new FunctionModel(
            method,
            functionName,
            signature,
            source,
            FunctionModel.Embedded.json(signature),
            parameters,
            result,
            Optional.empty(),
            true));
  }

  /**
   * The type as the calling convention sees it ({@code i1}, {@code i8} and {@code i16} travel as
   * {@code i32} values), which is what the module's reflection, if any, also states.
   */
  private static AbiType vmLevel(AbiType type) {
    return CallingConvention.typeOf(type.vmKind().orElse(VmKind.REF));
  }

  /** Primitives are unboxed values of their width; other types object records. */
  private ValueBinding binding(
      TypeMirror type, String path, javax.lang.model.element.Element site) {
    TypeName name = TypeName.get(type);
    switch (type.getKind()) {
      case BOOLEAN:
        return new ScalarBinding(new AbiType.Scalar(ElementType.I1), name, false, path);
      case BYTE:
        return new ScalarBinding(new AbiType.Scalar(ElementType.I8), name, false, path);
      case SHORT:
        return new ScalarBinding(new AbiType.Scalar(ElementType.I16), name, false, path);
      case INT:
        return new ScalarBinding(new AbiType.Scalar(ElementType.I32), name, false, path);
      case LONG:
        return new ScalarBinding(new AbiType.Scalar(ElementType.I64), name, false, path);
      case FLOAT:
        return new ScalarBinding(new AbiType.Scalar(ElementType.F32), name, false, path);
      case DOUBLE:
        return new ScalarBinding(new AbiType.Scalar(ElementType.F64), name, false, path);
      case DECLARED:
        String qualified = types.erasure(type).toString();
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
        return new RefBinding(AbiType.Ref.any(), name, path);
      case ARRAY:
        TypeMirror component = ((ArrayType) type).getComponentType();
        report.error(
            Tag.UNSUPPORTED_TYPE,
            path
                + " is a "
                + type
                + (component.getKind() == TypeKind.BYTE
                    ? ", but PyDM's Bytes objects have no lowering in IREE yet"
                    : ", but a PyDM object is a value, a List, a PyTuple or a PyObject")
                + "; use a List or PyTuple",
            site);
        return null;
      default:
        report.error(
            Tag.UNSUPPORTED_TYPE,
            path + " is a " + type + ", which no PyDM value is; use a primitive or an object type",
            site);
        return null;
    }
  }
}
