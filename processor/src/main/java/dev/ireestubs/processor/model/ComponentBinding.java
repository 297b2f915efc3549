package dev.ireestubs.processor.model;

import java.util.Objects;

/**
 * One record component bound to one sdict key or sequence element.
 *
 * @param key the sdict key, or null for a positional ({@code slist}/{@code stuple}) element
 * @param accessor the record component's name (its accessor method)
 * @param binding how the component's value is marshalled
 */
public record ComponentBinding(String key, String accessor, ValueBinding binding) {
  public ComponentBinding {
    Objects.requireNonNull(accessor, "accessor");
    Objects.requireNonNull(binding, "binding");
  }
}
