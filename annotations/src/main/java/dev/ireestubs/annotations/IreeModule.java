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
 * <p>Each method finds its function's signature in its own {@link IreeFunction#abi()} when set,
 * otherwise in the module file named by {@link #abi()}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface IreeModule {

  /** The module name the functions are looked up under at run time. */
  String name() default "module";

  /**
   * A resource path (from the resource root, e.g. {@code "models/classifier.abi.json"}) of a JSON
   * file mapping each function name to its {@code iree.abi} object: {@code {"predict":
   * {"a":[...],"r":[...],"v":1}, ...}}. The processor looks in the directory given by {@code
   * -Airee.reflectionDir=...}, then in the class output, the source path and the class path. Empty:
   * every method states its own {@link IreeFunction#abi()}.
   */
  String abi() default "";

  /**
   * A compiled module ({@code .vmfb}) to read the reflection from. Not supported yet: setting it is
   * a compile error for now.
   */
  String vmfb() default "";
}
