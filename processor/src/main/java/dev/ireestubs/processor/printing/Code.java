package dev.ireestubs.processor.printing;

import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.lang.model.SourceVersion;

/**
 * A fragment of generated Java code: text, type names (printed by {@link JavaSource} as imports
 * allow), string literals, nested fragments and indentation, built from JavaPoet-style formats
 * ({@code $T} a {@link TypeName}, {@code $N} a name, {@code $S} a string literal, {@code $L} a
 * literal or a nested fragment, {@code $$} a dollar sign).
 *
 * <p>The stub's code is printed through this class rather than JavaPoet's {@code CodeBlock} because
 * a stub of a large module is thousands of small fragments: JavaPoet prints a file twice (once to
 * choose its imports) and splits every piece it prints on line breaks with a regular expression,
 * which made printing the larger part of the processor's time. A format here is parsed once, into a
 * list of parts; {@link JavaSource} walks the parts' types once to choose the imports, then prints
 * each part once. The formats and the printed layout are JavaPoet's.
 */
public final class Code {

  /** Parts that are not text, a type, a literal or a fragment. */
  enum Marker {
    /** One more level of indentation. */
    INDENT,
    /** One less level of indentation. */
    UNINDENT,
    /** A statement starts: its lines after the first are indented two more levels. */
    STATEMENT,
    /** The statement ends. */
    STATEMENT_END
  }

  /** A string literal part ({@code $S}): printed quoted and escaped, {@code null} as null. */
  record Literal(String value) {}

  private static final Code EMPTY = new Code(List.of(), List.of());

  /** Strings (text and names), {@link TypeName}s, {@link Literal}s, {@link Marker}s. */
  private final List<Object> parts;

  /** The {@link TypeName}s among the parts, in order: what choosing imports reads. */
  private final List<TypeName> types;

  private Code(List<Object> parts, List<TypeName> types) {
    this.parts = parts;
    this.types = types;
  }

  /** No code: a member without Javadoc, a field without initializer, an empty body. */
  public static Code empty() {
    return EMPTY;
  }

  /** The fragment of {@code format} with {@code args}. */
  public static Code of(String format, Object... args) {
    return new Builder().add(format, args).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code codes} separated by {@code separator}. */
  public static Code join(List<Code> codes, String separator) {
    Builder b = new Builder();
    for (int i = 0; i < codes.size(); i++) {
      if (i > 0) {
        b.parts.add(separator);
      }
      b.add(codes.get(i));
    }
    return b.build();
  }

  /** The parts, in order (see {@link #parts}). */
  List<Object> parts() {
    return parts;
  }

  /** The types the code names, in order. */
  List<TypeName> types() {
    return types;
  }

  public boolean isEmpty() {
    return parts.isEmpty();
  }

  /**
   * The code when it is one plain name (a parameter, a local, a loop variable), else null: what
   * {@code SourceVersion.isIdentifier(toString())} says, without printing.
   */
  public String name() {
    StringBuilder name = new StringBuilder();
    for (Object part : parts) {
      if (!(part instanceof String string)) {
        return null;
      }
      name.append(string);
    }
    String text = name.toString();
    return SourceVersion.isIdentifier(text) ? text : null;
  }

  /** The code with every type fully qualified (what the code says, for comparisons and checks). */
  @Override
  public String toString() {
    return JavaSource.qualified(this);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Code && toString().equals(o.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** Builds a fragment part by part. */
  public static final class Builder {
    private final List<Object> parts = new ArrayList<>();
    private final List<TypeName> types = new ArrayList<>();

    private Builder() {}

    /** Appends {@code format} with {@code args} (see the class comment for the placeholders). */
    public Builder add(String format, Object... args) {
      int arg = 0;
      int text = 0;
      int n = format.length();
      for (int i = 0; i < n; i++) {
        if (format.charAt(i) != '$') {
          continue;
        }
        if (i + 1 == n) {
          throw new IllegalArgumentException("dangling $ at the end of '" + format + "'");
        }
        if (i > text) {
          parts.add(format.substring(text, i));
        }
        char c = format.charAt(++i);
        text = i + 1;
        switch (c) {
          case 'L' -> literal(arg(args, arg++, format));
          case 'N' -> parts.add(name(arg(args, arg++, format)));
          case 'S' -> parts.add(string(arg(args, arg++, format)));
          case 'T' -> {
            TypeName type = type(arg(args, arg++, format));
            parts.add(type);
            types.add(type);
          }
          case '$' -> parts.add("$");
          case '>' -> parts.add(Marker.INDENT);
          case '<' -> parts.add(Marker.UNINDENT);
          case '[' -> parts.add(Marker.STATEMENT);
          case ']' -> parts.add(Marker.STATEMENT_END);
          default ->
              throw new IllegalArgumentException(
                  "unknown placeholder $" + c + " in '" + format + "'");
        }
      }
      if (arg != args.length) {
        throw new IllegalArgumentException(
            args.length - arg + " arguments unused by '" + format + "'");
      }
      if (text < n) {
        parts.add(format.substring(text));
      }
      return this;
    }

    /** Appends the parts of {@code code}. */
    public Builder add(Code code) {
      parts.addAll(code.parts);
      types.addAll(code.types);
      return this;
    }

    /** A statement: {@code format}, a semicolon and a line break. */
    public Builder addStatement(String format, Object... args) {
      parts.add(Marker.STATEMENT);
      add(format, args);
      parts.add(";\n");
      parts.add(Marker.STATEMENT_END);
      return this;
    }

    /** {@code controlFlow}, an opening brace and a line break, then one level more. */
    public Builder beginControlFlow(String controlFlow, Object... args) {
      add(controlFlow, args);
      parts.add(" {\n");
      parts.add(Marker.INDENT);
      return this;
    }

    /**
     * Closes a block and opens the next: one level less, a closing brace, {@code controlFlow} and
     * an opening brace (for a {@code catch} or {@code else} clause), then one level more.
     */
    public Builder nextControlFlow(String controlFlow, Object... args) {
      parts.add(Marker.UNINDENT);
      parts.add("} ");
      add(controlFlow, args);
      parts.add(" {\n");
      parts.add(Marker.INDENT);
      return this;
    }

    /** The closing brace of a control flow. */
    public Builder endControlFlow() {
      parts.add(Marker.UNINDENT);
      parts.add("}\n");
      return this;
    }

    public Builder indent() {
      parts.add(Marker.INDENT);
      return this;
    }

    public Builder unindent() {
      parts.add(Marker.UNINDENT);
      return this;
    }

    public Code build() {
      return parts.isEmpty()
          ? EMPTY
          : new Code(
              Collections.unmodifiableList(new ArrayList<>(parts)),
              types.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(types)));
    }

    /** The {@code i}th of {@code args}, or an error naming the format that lacks it. */
    private static Object arg(Object[] args, int i, String format) {
      if (i >= args.length) {
        throw new IllegalArgumentException(
            "'" + format + "' needs more than the " + args.length + " arguments given");
      }
      return args[i];
    }

    /** A string literal of {@code value} (as JavaPoet, any object: its {@code String.valueOf}). */
    private static Literal string(Object value) {
      return new Literal(value == null ? null : String.valueOf(value));
    }

    private void literal(Object value) {
      if (value instanceof Code code) {
        add(code);
      } else {
        parts.add(String.valueOf(value));
      }
    }

    private static String name(Object value) {
      if (value instanceof CharSequence) {
        return value.toString();
      }
      throw new IllegalArgumentException("expected a name for $N but was " + value);
    }

    private static TypeName type(Object value) {
      if (value instanceof TypeName typeName) {
        return typeName;
      }
      if (value instanceof Class<?>) {
        return TypeName.get((Class<?>) value);
      }
      throw new IllegalArgumentException("expected a type for $T but was " + value);
    }
  }
}
