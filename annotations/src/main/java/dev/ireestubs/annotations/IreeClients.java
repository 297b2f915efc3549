package dev.ireestubs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The container of repeated {@link IreeClient} annotations on one package. */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PACKAGE)
public @interface IreeClients {

  /**
   * The clients to derive.
   *
   * @return one {@link IreeClient} per client to generate
   */
  IreeClient[] value();
}
