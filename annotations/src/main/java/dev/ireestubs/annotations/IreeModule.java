package dev.ireestubs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface as the typed client of one IREE module. At compile time the iree-stubs
 * annotation processor checks every abstract method against the module's reflection and generates
 * {@code Iree_<Interface>} (nested interfaces: {@code Iree_<Outer>_<Inner>}) in the interface's
 * package.
 *
 * <pre>{@code
 * @IreeModule(name = "module", abi = "classifier.abi.json")
 * public interface Classifier {
 *   record Features(FloatArray image, int label) {}
 *   record Scores(FloatArray logits, FloatArray probs) {}
 *   Scores predict(Features features);
 * }
 * }</pre>
 *
 * <p>Or check it against the compiled module itself:
 *
 * <pre>{@code
 * @IreeModule(vmfb = "models/classifier.vmfb")
 * public interface Classifier {
 *   FloatArray predict(FloatArray image);
 * }
 * }</pre>
 *
 * <p>Each method finds its function's signature in its own {@link IreeFunction#abi()} when set,
 * otherwise in the module named by {@link #vmfb()} or the file named by {@link #abi()} (set one of
 * the two, not both).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface IreeModule {

  /**
   * The module name the functions are looked up under at run time. With {@link #vmfb()}, leave it
   * out: it is then the name compiled into the module, and any other name is an error.
   *
   * @return the run-time module name; {@code module} by default
   */
  String name() default "module";

  /**
   * A resource path (from the resource root, e.g. {@code "models/classifier.abi.json"}) of a JSON
   * file mapping each function name to its {@code iree.abi} object: {@code {"predict":
   * {"a":[...],"r":[...],"v":1}, ...}}. The processor looks in the directory given by {@code
   * -Airee.reflectionDir=...}, then in the class output, the source path and the class path. Empty:
   * every method states its own {@link IreeFunction#abi()}.
   *
   * @return the JSON resource path, or empty
   */
  String abi() default "";

  /**
   * A resource path (from the resource root, e.g. {@code "models/classifier.vmfb"}) of a compiled
   * module ({@code .vmfb}, of any IREE release) to check the interface against, found like {@link
   * #abi()}. Each function is checked against the best reflection the module has for it: {@code
   * iree.abi} JSON, else its {@code iree.abi.declaration}, else the deprecated V0 signature, else
   * its calling convention alone (which still checks the number of arguments and results and
   * whether each is a value or a ref). A declaration that does not parse is a warning, and the next
   * best source is used. Empty: {@link #abi()} or each method's {@link IreeFunction#abi()}.
   *
   * @return the {@code .vmfb} resource path, or empty
   */
  String vmfb() default "";
}
