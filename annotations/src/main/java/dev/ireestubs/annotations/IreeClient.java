package dev.ireestubs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks the build for a whole typed client of one IREE module, with no hand-written interface: on a
 * {@code package-info.java}, the iree-stubs annotation processor derives, in that package, a public
 * interface with one method per exported function (records for structures, typed arrays for
 * tensors, parameter names from the reflection, each function's declaration in its Javadoc),
 * annotated {@link IreeModule}, and then checks it and writes its stub {@code Iree_<Name>} exactly
 * as for an interface written by hand.
 *
 * <pre>{@code
 * @IreeClient(vmfb = "models/mobilenet.vmfb", name = "MobileNet")
 * @IreeClient(abi = "models/classifier.abi.json", module = "classifier", name = "Classifier")
 * package com.acme.models;
 *
 * import dev.ireestubs.annotations.IreeClient;
 * }</pre>
 *
 * <p>Set one of {@link #vmfb()} and {@link #abi()}; both are found as for {@link IreeModule}.
 *
 * <p>Each function's types come from the module's best source, as everywhere in iree-stubs: its
 * {@code iree.abi} JSON, else its {@code iree.abi.declaration}, else the types its bytecode states
 * (the element types and dims it asserts of each argument and gives each result; how models
 * imported from PyTorch or ONNX are typed, since they carry no reflection), else its calling
 * convention alone (opaque refs). Each method's Javadoc says which ({@code from bytecode}, ...).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PACKAGE)
@Repeatable(IreeClients.class)
public @interface IreeClient {

  /**
   * A resource path of a compiled module ({@code .vmfb}) to derive the client from.
   *
   * @return the {@code .vmfb} resource path, or empty when {@link #abi()} is given
   */
  String vmfb() default "";

  /**
   * A resource path of an {@code iree.abi} JSON module file (function name to {@code iree.abi}
   * object) to derive the client from; then {@link #module()} names the module.
   *
   * @return the JSON resource path, or empty when {@link #vmfb()} is given
   */
  String abi() default "";

  /**
   * The interface's simple name. Empty: the module's name in PascalCase ({@code mobilenet_v2} gives
   * {@code MobilenetV2}).
   *
   * @return the simple name of the generated interface, or empty for the derived one
   */
  String name() default "";

  /**
   * With {@link #abi()}: the module name the functions are looked up under at run time. With {@link
   * #vmfb()} leave it out: the name compiled into the module is used.
   *
   * @return the run-time module name; {@code module} by default
   */
  String module() default "module";
}
