package dev.ireestubs.processor.binding;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.names.Names;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Matches the components of a record to the keys of an sdict: by {@code @IreeKey}, then by exact
 * name, then by the camelCase form of a snake_case key ({@link AbiType.Dict#camelCase}), the rule
 * the dynamic invoker and {@code inspect} share. Every component without a key and every key
 * without a component is reported, with the nearest name as a hint.
 */
final class KeyMatcher {

  private final Reporter report;
  private final Wording words;
  private final StructureBinder structures;

  KeyMatcher(Reporter report, Wording words, StructureBinder structures) {
    this.report = report;
    this.words = words;
    this.structures = structures;
  }

  /**
   * The components matched to keys.
   *
   * @param byKey the component bound to each key that has one
   * @param complete false when any component or key was left over or bound twice (reported)
   */
  record Match(Map<String, Declaration.Component> byKey, boolean complete) {}

  /** Matches {@code record}'s components to {@code t}'s keys, reporting what is left over. */
  Match match(AbiType.Dict t, Declaration.RecordType record, String path, ValueBinder.Site site) {
    List<String> keys = t.keys();
    Set<String> keySet = new HashSet<>(keys);
    Map<String, Declaration.Component> byKey = new HashMap<>();
    List<Declaration.Component> badKeyAnnotation = new ArrayList<>();
    List<Declaration.Component> pending = new ArrayList<>();
    // 1. @IreeKey, 2. the exact name, 3. the camelCase form of a snake_case key.
    boolean ok = byAnnotation(keySet, record, byKey, badKeyAnnotation, pending, path, site);
    ok &= byName(keySet, record, byKey, pending, path, site);
    byCamelCase(keys, byKey, pending);
    List<String> freeKeys = new ArrayList<>();
    for (String k : keys) {
      if (!byKey.containsKey(k)) {
        freeKeys.add(k);
      }
    }
    if (!badKeyAnnotation.isEmpty() || !pending.isEmpty()) {
      // Only the messages about left-over components list the keys.
      String keyList = keys.isEmpty() ? "none" : Messages.list(keys);
      for (Declaration.Component c : record.components()) {
        if (badKeyAnnotation.contains(c)) {
          ok = false;
          badKey(record, c, freeKeys, keyList, path, site);
        } else if (pending.contains(c)) {
          ok = false;
          noKey(record, c, freeKeys, keyList, path, site);
        }
      }
    }
    if (!freeKeys.isEmpty()) {
      ok = false;
      Map<String, AbiType> types = new HashMap<>();
      t.entries().forEach(e -> types.put(e.key(), e.type()));
      for (String k : freeKeys) {
        noComponent(record, k, types.get(k), path, site);
      }
    }
    return new Match(byKey, ok);
  }

  /** Components with {@code @IreeKey} take their key; false when one was taken twice. */
  private boolean byAnnotation(
      Set<String> keySet,
      Declaration.RecordType record,
      Map<String, Declaration.Component> byKey,
      List<Declaration.Component> badKeyAnnotation,
      List<Declaration.Component> pending,
      String path,
      ValueBinder.Site site) {
    boolean ok = true;
    for (Declaration.Component c : record.components()) {
      if (c.key().isEmpty()) {
        pending.add(c);
        continue;
      }
      String k = c.key().get().value();
      if (!keySet.contains(k)) {
        badKeyAnnotation.add(c);
      } else if (byKey.containsKey(k)) {
        ok = false;
        duplicateKey(record, c, byKey.get(k), k, path, site);
      } else {
        byKey.put(k, c);
      }
    }
    return ok;
  }

  /** Components named exactly as a key take it; false when an annotated one has it already. */
  private boolean byName(
      Set<String> keySet,
      Declaration.RecordType record,
      Map<String, Declaration.Component> byKey,
      List<Declaration.Component> pending,
      String path,
      ValueBinder.Site site) {
    boolean ok = true;
    for (Iterator<Declaration.Component> it = pending.iterator(); it.hasNext(); ) {
      Declaration.Component c = it.next();
      if (keySet.contains(c.name())) {
        it.remove();
        if (byKey.containsKey(c.name())) {
          // Taken by an @IreeKey component.
          ok = false;
          duplicateKey(record, c, byKey.get(c.name()), c.name(), path, site);
        } else {
          byKey.put(c.name(), c);
        }
      }
    }
    return ok;
  }

  /** Components named as the camelCase form of a free key take it. */
  private static void byCamelCase(
      List<String> keys,
      Map<String, Declaration.Component> byKey,
      List<Declaration.Component> pending) {
    if (pending.isEmpty()) {
      return;
    }
    Map<String, String> camel = new LinkedHashMap<>();
    keys.forEach(k -> camel.put(k, AbiType.Dict.camelCase(k)));
    for (Declaration.Component c : new ArrayList<>(pending)) {
      for (String k : keys) {
        if (!byKey.containsKey(k) && camel.get(k).equals(c.name())) {
          byKey.put(k, c);
          pending.remove(c);
          break;
        }
      }
    }
  }

  private void badKey(
      Declaration.RecordType record,
      Declaration.Component c,
      List<String> freeKeys,
      String keyList,
      String path,
      ValueBinder.Site site) {
    String k = c.key().orElseThrow().value();
    Optional<String> near = Names.nearest(k, freeKeys);
    near.ifPresent(freeKeys::remove);
    structures.componentError(
        record,
        c,
        path
            + ": @IreeKey("
            + Messages.quote(k)
            + ") on component "
            + c.name()
            + " of record "
            + record.simpleName()
            + " names no key of the sdict in the module (keys: "
            + keyList
            + ")"
            + near.map(
                    n ->
                        "; did you mean "
                            + Messages.quote(n)
                            + "? change it to @IreeKey("
                            + Messages.quote(n)
                            + ")")
                .orElse("; change it to one of the keys"),
        true,
        site);
  }

  private void noKey(
      Declaration.RecordType record,
      Declaration.Component c,
      List<String> freeKeys,
      String keyList,
      String path,
      ValueBinder.Site site) {
    String name = c.name();
    Optional<String> near = Names.nearest(name, freeKeys);
    if (near.isEmpty()) {
      structures.componentError(
          record,
          c,
          path
              + ": record "
              + record.simpleName()
              + " has component "
              + name
              + ", but the sdict in the module has no such key (keys: "
              + keyList
              + "); remove the component or annotate it @IreeKey with one of the keys",
          false,
          site);
      return;
    }
    String n = near.get();
    freeKeys.remove(n);
    String camel = AbiType.Dict.camelCase(n);
    structures.componentError(
        record,
        c,
        path
            + ": the sdict in the module has no key "
            + Messages.quote(name)
            + " for component "
            + name
            + " of record "
            + record.simpleName()
            + "; did you mean "
            + Messages.quote(n)
            + "? "
            + (Names.isJavaName(camel)
                ? "rename the component to " + camel + " or annotate it "
                : "annotate it ")
            + "@IreeKey("
            + Messages.quote(n)
            + ")",
        false,
        site);
  }

  private void noComponent(
      Declaration.RecordType record, String k, AbiType type, String path, ValueBinder.Site site) {
    String component = AbiType.Dict.camelCase(k);
    report.error(
        Tag.SIGNATURE_MISMATCH,
        path
            + "."
            + Messages.abbreviate(k, Messages.MAX_NAME)
            + " is "
            + words.describe(type)
            + " in the module, but record "
            + record.simpleName()
            + " has no component for key "
            + Messages.quote(k)
            + "; add a component "
            + words.suggestType(type, k)
            + " "
            + (Names.isJavaName(component)
                ? component
                : "annotated @IreeKey(" + Messages.quote(k) + ")"),
        record.hasSource() ? record.location() : site.location());
  }

  private void duplicateKey(
      Declaration.RecordType record,
      Declaration.Component c,
      Declaration.Component first,
      String key,
      String path,
      ValueBinder.Site site) {
    structures.componentError(
        record,
        c,
        path
            + ": components "
            + first.name()
            + " and "
            + c.name()
            + " of record "
            + record.simpleName()
            + " both bind key "
            + Messages.quote(key)
            + "; bind each key once",
        c.key().isPresent(),
        site);
  }
}
