package dev.ireestubs.iree;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Parameter archives bound to scopes: the external weights of a module that imports IREE's {@code
 * io_parameters} module (compiled with its weights kept out of the {@code .vmfb}). Each scope the
 * module names ({@code iree-stubs inspect} lists them) gets one or more files, IREE parameter
 * archives ({@code .irpa}; IREE also reads {@code .gguf} and {@code .safetensors}), as {@code
 * iree-run-module --parameters=SCOPE=FILE} takes them. Immutable.
 *
 * <pre>{@code
 * Parameters weights = Parameters.builder().scope("model", Path.of("weights.irpa")).build();
 * try (IreeSession s = IreeBackend.open(vmfb, Options.defaults().withParameters(weights))) {
 *   FloatArray y = new Iree_Scale(s).scale(x);
 * }
 * }</pre>
 *
 * <p>IREE opens the files itself when the module is loaded and reads each parameter from the file
 * when the module's initialiser loads it: nothing is copied into the Java heap. The session keeps
 * the files open until it is closed.
 *
 * @param scopes the files of each scope, in the order given; the empty name is IREE's unnamed scope
 *     (a module that loads parameters without one)
 */
public record Parameters(Map<String, List<Path>> scopes) {

  private static final Parameters NONE = new Parameters(Map.of());

  /**
   * Checks that no scope name is null and no scope is empty, and keeps an unmodifiable copy of the
   * map and of each list of files, in the order given.
   *
   * @param scopes the files of each scope; the empty name is IREE's unnamed scope
   */
  public Parameters {
    Objects.requireNonNull(scopes, "scopes");
    Map<String, List<Path>> copy = new LinkedHashMap<>();
    scopes.forEach(
        (scope, files) -> {
          Objects.requireNonNull(scope, "scope");
          if (files.isEmpty()) {
            throw new IllegalArgumentException("scope '" + scope + "' has no files");
          }
          copy.put(scope, List.copyOf(files));
        });
    scopes = Collections.unmodifiableMap(copy);
  }

  /**
   * No parameters.
   *
   * @return parameters with no scope, for a module without external weights
   */
  public static Parameters none() {
    return NONE;
  }

  /**
   * A builder adding files scope by scope.
   *
   * @return a new, empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether no scope is bound.
   *
   * @return true when no scope is bound
   */
  public boolean isEmpty() {
    return scopes.isEmpty();
  }

  /** Builds {@link Parameters}; not thread-safe. */
  public static final class Builder {
    private final Map<String, List<Path>> scopes = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds {@code files} to {@code scope} (after those already added to it). Keys should be
     * distinct across the files of one scope.
     *
     * @param scope the name the module loads its parameters from, e.g. {@code model}
     * @param files the parameter archive files (e.g. {@code .irpa}), one or more
     * @return this builder
     * @throws IllegalArgumentException when no file is given
     */
    public Builder scope(String scope, Path... files) {
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(files, "files");
      if (files.length == 0) {
        throw new IllegalArgumentException("scope '" + scope + "': give at least one file");
      }
      List<Path> list = scopes.computeIfAbsent(scope, k -> new ArrayList<>());
      for (Path f : files) {
        list.add(Objects.requireNonNull(f, "file"));
      }
      return this;
    }

    /**
     * The parameters.
     *
     * @return the parameters added so far; later changes to this builder do not affect them
     */
    public Parameters build() {
      return new Parameters(scopes);
    }
  }
}
