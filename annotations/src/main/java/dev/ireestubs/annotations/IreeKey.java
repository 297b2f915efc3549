package dev.ireestubs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The reflection key a parameter or record component stands for, when its Java name is not that key
 * or its camelCase form: the name of a {@code named} argument, or an {@code sdict} key.
 *
 * <pre>{@code
 * record Detections(@IreeKey("boxes:0") FloatArray boxes, IntArray classIds) {}  // classIds <-> class_ids
 * FloatArray embed(@IreeKey("tokens") IntArray ids);
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface IreeKey {

  /**
   * The key, exactly as the reflection writes it.
   *
   * @return the {@code named} argument's name or the {@code sdict} key; never empty
   */
  String value();
}
