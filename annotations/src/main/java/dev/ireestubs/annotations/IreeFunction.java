package dev.ireestubs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a method of an {@link IreeModule} interface to a module function whose name differs from
 * the method's, or gives the function's signature inline. Methods without it bind to the function
 * of the same name, with the signature from the module's {@link IreeModule#vmfb()} or {@link
 * IreeModule#abi()} file.
 *
 * <pre>{@code
 * @IreeFunction(value = "embed",
 *     abi = "{\"a\":[[\"named\",\"tokens\",[\"ndarray\",\"i32\",2,1,null]]],\"r\":[[\"ndarray\",\"f32\",2,1,384]]}")
 * FloatArray embedTokens(@IreeKey("tokens") IntArray ids);
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface IreeFunction {

  /**
   * The module function's name; empty: the method's name.
   *
   * @return the function's name in the module, or empty for the method's name
   */
  String value() default "";

  /**
   * The function's reflection, inline: {@code iree.abi} JSON when the text starts with <code>{
   * </code> ({@code {"a":[...],"r":[...]}}), a deprecated V0 raw signature when it starts with
   * {@code I<length>!} ({@code I6!B3!d4R6!B3!d4}), otherwise {@code iree.abi.declaration} text
   * ({@code sync func @add(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)}). It overrides the
   * module's own reflection. Empty: the module's {@link IreeModule#vmfb()} or {@link
   * IreeModule#abi()} file describes it.
   *
   * @return the inline reflection text, or empty to use the module's
   */
  String abi() default "";

  /**
   * A deprecated V0 SIP signature ({@code I8!S5!k0_0R3!_0}) that structures the function's raw V0
   * signature (given in {@link #abi()} or found in the module): records and lists bind to its dicts
   * and sequences, and the stub flattens them into the raw argument list by leaf index. Empty: the
   * module's own {@code sip}, if any.
   *
   * @return the V0 SIP signature, or empty
   */
  String sip() default "";

  /**
   * How the function is called. {@link Convention#PYDM} for functions lowered from IREEPyDM: their
   * results are an {@code exception_result} then the value, objects travel as object records, and
   * the stub throws the Java exception an exception result stands for. Such functions carry no
   * reflection; the stub is checked against the module's calling convention.
   *
   * @return the calling convention; {@link Convention#ABI} by default
   */
  Convention convention() default Convention.ABI;

  /** Calling conventions a function may follow. */
  enum Convention {
    /** IREE's native ABI, described by the function's reflection. */
    ABI,
    /** The IREEPyDM lowering: {@code (args) -> (exception_result, value)}, objects as records. */
    PYDM
  }
}
