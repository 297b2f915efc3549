package dev.ireestubs.processor.binding;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.JavaType;
import dev.ireestubs.processor.diagnostics.Location;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.ValueBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds structures: an {@code sdict} to a record (through {@link KeyMatcher}) or to {@code
 * Map<String, V>}; an {@code slist} or {@code stuple} to a positional record or, when its elements
 * are uniform ({@link JavaMapping#uniformElement}), to {@code List<T>}.
 */
final class StructureBinder {

  private final BindSession session;
  private final Reporter report;
  private final Wording words;
  private final ValueBinder values;

  StructureBinder(BindSession session, Wording words, ValueBinder values) {
    this.session = session;
    this.report = session.report();
    this.words = words;
    this.values = values;
  }

  ValueBinding bindDict(AbiType.Dict t, JavaType j, String path, ValueBinder.Site site) {
    if (j instanceof JavaType.Declared declared && declared.is("java.util.Map")) {
      Optional<JavaType> value = mapValue(t, declared, path, site);
      return value.map(v -> bindMap(t, j, v, path, site)).orElse(null);
    }
    Declaration.RecordType record = usableRecord(t, j, path, site);
    if (record == null) {
      return null;
    }
    KeyMatcher.Match match = new KeyMatcher(report, words, this).match(t, record, path, site);
    boolean ok = match.complete();
    List<ComponentBinding> bindings = new ArrayList<>();
    for (AbiType.Entry entry : t.entries()) {
      Declaration.Component c = match.byKey().get(entry.key());
      if (c == null) {
        continue;
      }
      ValueBinding b =
          values.bind(
              entry.type(), c.type(), path + "." + entry.key(), componentSite(record, c, site));
      if (b == null) {
        ok = false;
      } else {
        bindings.add(new ComponentBinding(entry.key(), c.name(), b));
      }
    }
    if (!ok) {
      return null;
    }
    List<String> declared = new ArrayList<>(record.components().size());
    for (Declaration.Component c : record.components()) {
      declared.add(c.name());
    }
    return new RecordBinding(t, record.className(), bindings, path, declared);
  }

  /**
   * An sdict as {@code Map<String, V>}: every value must bind to {@code V} (each one that does not
   * is reported on the parameter or component, under its own path).
   */
  private ValueBinding bindMap(
      AbiType.Dict t, JavaType j, JavaType valueType, String path, ValueBinder.Site site) {
    ValueBinder.Site valueSite = new ValueBinder.Site(site.location(), ValueBinder.MAP_VALUE);
    List<ValueBinding> bindings = new ArrayList<>();
    boolean ok = true;
    for (AbiType.Entry entry : t.entries()) {
      ValueBinding b = values.bind(entry.type(), valueType, path + "." + entry.key(), valueSite);
      if (b == null) {
        ok = false;
      } else {
        bindings.add(b);
      }
    }
    return ok ? new MapBinding(t, j.typeName(), t.keys(), bindings, path) : null;
  }

  /**
   * The value type of {@code Map<String, V>}; empty when it is raw, wildcarded, keyed by something
   * other than {@code String} (reported), or unresolved (the declaration step's to report).
   */
  private Optional<JavaType> mapValue(
      AbiType.Dict t, JavaType.Declared j, String path, ValueBinder.Site site) {
    Optional<String> suggestion = words.mapSuggestion(t);
    String fix =
        suggestion
            .map(
                s ->
                    "change its type to "
                        + s
                        + " or a record such as "
                        + words.recordExample(t, Wording.lastSegment(path)))
            .orElseGet(() -> words.fix(t, path));
    List<JavaType> args = j.arguments();
    if (args.size() != 2) {
      values.misfit(t, "a raw Map; " + fix, path, site);
      return Optional.empty();
    }
    for (JavaType arg : args) {
      if (arg instanceof JavaType.Unresolved) {
        return Optional.empty();
      }
    }
    boolean stringKey =
        args.get(0) instanceof JavaType.Declared
            && ((JavaType.Declared) args.get(0)).is("java.lang.String");
    JavaType value = args.get(1);
    if (!stringKey || value instanceof JavaType.Wildcard) {
      values.misfit(
          t,
          j.display()
              + (stringKey
                  ? ", a Map of a wildcard; name the value type without a wildcard"
                      + suggestion.map(s -> ", e.g. " + s).orElse("")
                  : ", whose keys are not String (sdict keys are strings); " + fix),
          path,
          site);
      return Optional.empty();
    }
    return Optional.of(value);
  }

  ValueBinding bindSequence(AbiType.Sequence t, JavaType j, String path, ValueBinder.Site site) {
    Optional<JavaType> list = values.listElement(t, j, path, site);
    if (list != null) {
      return list.map(element -> bindList(t, j, element, path, site)).orElse(null);
    }
    Declaration.RecordType record = usableRecord(t, j, path, site);
    if (record == null) {
      return null;
    }
    List<AbiType> elems = t.elements();
    List<Declaration.Component> components = record.components();
    String what = words.isResults(t) ? "result" : "element";
    boolean ok = true;
    if (components.size() != elems.size()) {
      ok = false;
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + words.describe(t)
              + " in the module, with "
              + Messages.count(elems.size(), what)
              + ", but record "
              + record.simpleName()
              + " has "
              + Messages.count(components.size(), "component")
              + "; declare exactly "
              + elems.size()
              + ", one per "
              + what
              + " in order",
          record.hasSource() ? record.location() : site.location());
    }
    List<ComponentBinding> bindings = new ArrayList<>();
    for (int i = 0; i < Math.min(components.size(), elems.size()); i++) {
      Declaration.Component c = components.get(i);
      if (c.key().isPresent()) {
        componentWarning(
            record,
            c,
            path
                + " is positional in the module ("
                + (words.isResults(t) ? "results" : t.kind().tag())
                + "), so @IreeKey on component "
                + c.name()
                + " has no effect; remove it",
            site);
      }
      ValueBinding b =
          values.bind(elems.get(i), c.type(), path + "[" + i + "]", componentSite(record, c, site));
      if (b == null) {
        ok = false;
      } else {
        bindings.add(new ComponentBinding(null, c.name(), b));
      }
    }
    return ok ? new RecordBinding(t, record.className(), bindings, path) : null;
  }

  /** A fixed-size sequence as {@code List<T>}: its elements must all have one type record. */
  private ValueBinding bindList(
      AbiType.Sequence t, JavaType j, JavaType elementType, String path, ValueBinder.Site site) {
    Optional<AbiType> uniform = JavaMapping.uniformElement(t.elements());
    if (uniform.isEmpty()) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + words.describe(t)
              + " in the module, "
              + (t.elements().isEmpty() ? "with no elements" : "whose elements differ")
              + ", so it binds only to "
              + words.accepts(t)
              + ", but "
              + site.noun()
              + " is "
              + j.display()
              + "; "
              + words.fix(t, path),
          site.location());
      return null;
    }
    ValueBinding element =
        values.bind(
            uniform.get(),
            elementType,
            path + "[*]",
            new ValueBinder.Site(site.location(), ValueBinder.LIST_ELEMENT));
    return element == null
        ? null
        : new ListBinding(t, j.typeName(), element, t.elements().size(), path);
  }

  /**
   * The record {@code j} names, when it can stand for {@code t}; null when {@code j} is not a
   * record (a mismatch) or is generic or inaccessible, each reported.
   */
  private Declaration.RecordType usableRecord(
      AbiType t, JavaType j, String path, ValueBinder.Site site) {
    Optional<Declaration.RecordType> found = session.declaration().record(j);
    if (found.isEmpty()) {
      values.mismatch(t, j, path, site);
      return null;
    }
    Declaration.RecordType record = found.get();
    if (record.generic()) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + ": record "
              + record.simpleName()
              + " is generic, so the stub cannot tell its components' types; declare a record"
              + " with concrete component types",
          site.location());
      return null;
    }
    if (!record.accessible()) {
      values.inaccessible(record.qualifiedName(), path, site);
      return null;
    }
    return record;
  }

  /** A component's site; a record without source reports at the use site. */
  private static ValueBinder.Site componentSite(
      Declaration.RecordType record, Declaration.Component c, ValueBinder.Site use) {
    if (record.hasSource()) {
      return new ValueBinder.Site(c.location(), "the component");
    }
    return new ValueBinder.Site(
        use.location(), "component " + c.name() + " of record " + record.simpleName());
  }

  /**
   * Reports on a component of a record; {@code keyAnnotation} true points at its {@code @IreeKey}
   * (found on the canonical constructor's parameter, where javac keeps its position).
   */
  void componentError(
      Declaration.RecordType record,
      Declaration.Component c,
      String message,
      boolean keyAnnotation,
      ValueBinder.Site use) {
    Location at =
        !record.hasSource() ? use.location() : keyAnnotation ? c.keyLocation() : c.location();
    report.error(Tag.SIGNATURE_MISMATCH, message, at);
  }

  private void componentWarning(
      Declaration.RecordType record,
      Declaration.Component c,
      String message,
      ValueBinder.Site use) {
    report.warning(
        Tag.IGNORED_ANNOTATION, message, record.hasSource() ? c.keyLocation() : use.location());
  }
}
