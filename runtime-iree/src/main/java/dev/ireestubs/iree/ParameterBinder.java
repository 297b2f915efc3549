package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds IREE's parameters module ({@code iree_io_parameters_module_create}) from {@link
 * Parameters}, as {@code iree-run-module --parameters} does ({@code tooling/parameter_util.c}): per
 * scope an index ({@code iree_io_parameter_index_create}) filled from each file, which IREE opens
 * for reading ({@code iree_io_file_handle_open}) and whose entries it parses by the file's format
 * ({@code iree_io_parse_file_index}); then an index provider per scope and one module over all of
 * them. The module retains its providers, they their index, it its files: once built, only the
 * module's reference is kept, and releasing it (with the session) releases the rest.
 */
final class ParameterBinder {

  private static final long FILE_MODE_READ = 1L; // IREE_IO_FILE_MODE_READ
  private static final long MAX_CONCURRENT_OPERATIONS = 16; // the index provider's default

  private final Native api;
  private final MemorySegment hostAllocator;

  ParameterBinder(Native api, MemorySegment hostAllocator) {
    this.api = api;
    this.hostAllocator = hostAllocator;
  }

  /**
   * A new parameters module serving {@code parameters}; the caller owns its reference.
   *
   * @throws NoSuchFileException when a file is missing or not a regular file
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE cannot open or parse a file
   */
  MemorySegment build(MemorySegment vmInstance, Parameters parameters) throws IOException {
    checkFiles(parameters);
    List<MemorySegment> providers = new ArrayList<>();
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment out = tmp.allocate(ADDRESS);
      for (Map.Entry<String, List<Path>> scope : parameters.scopes().entrySet()) {
        providers.add(provider(tmp, out, scope.getKey(), scope.getValue()));
      }
      MemorySegment array = tmp.allocate(ADDRESS, providers.size());
      for (int i = 0; i < providers.size(); i++) {
        array.setAtIndex(ADDRESS, i, providers.get(i));
      }
      api.status()
          .check(
              api.parameters()
                  .parametersModuleCreate(vmInstance, providers.size(), array, hostAllocator, out),
              "iree_io_parameters_module_create (scopes " + quoted(parameters) + ")");
      return out.get(ADDRESS, 0);
    } finally {
      for (MemorySegment p : providers) {
        api.parameters().parameterProviderRelease(p); // the module retains what it keeps
      }
    }
  }

  private MemorySegment provider(Arena tmp, MemorySegment out, String scope, List<Path> files) {
    api.status()
        .check(
            api.parameters().parameterIndexCreate(hostAllocator, out),
            "iree_io_parameter_index_create");
    MemorySegment index = out.get(ADDRESS, 0);
    try {
      for (Path file : files) {
        addFile(tmp, out, index, scope, file);
      }
      api.status()
          .check(
              api.parameters()
                  .parameterIndexProviderCreate(
                      StringViews.of(tmp, scope),
                      index,
                      MAX_CONCURRENT_OPERATIONS,
                      hostAllocator,
                      out),
              "iree_io_parameter_index_provider_create (scope '" + scope + "')");
      return out.get(ADDRESS, 0);
    } finally {
      api.parameters().parameterIndexRelease(index); // the provider retains it
    }
  }

  private void addFile(Arena tmp, MemorySegment out, MemorySegment index, String scope, Path file) {
    MemorySegment path = StringViews.of(tmp, file.toAbsolutePath().toString());
    long status = api.parameters().fileHandleOpen(FILE_MODE_READ, path, hostAllocator, out);
    if (status != 0) {
      throw api.status().failure(status, "parameter scope '" + scope + "': opening " + file);
    }
    MemorySegment handle = out.get(ADDRESS, 0);
    try {
      status = api.parameters().parseFileIndex(path, handle, index, hostAllocator);
      if (status != 0) {
        throw api.status()
            .failure(
                status,
                "parameter scope '"
                    + scope
                    + "': reading the archive "
                    + file
                    + " (a truncated or corrupt file, or not a parameter archive: IREE reads .irpa,"
                    + " .gguf and .safetensors, by the file name's extension)");
      }
    } finally {
      // The index retains the handle when it has entries from it.
      api.parameters().fileHandleRelease(handle);
    }
  }

  private static void checkFiles(Parameters parameters) throws NoSuchFileException {
    for (Map.Entry<String, List<Path>> scope : parameters.scopes().entrySet()) {
      for (Path file : scope.getValue()) {
        if (!Files.isRegularFile(file)) {
          throw new NoSuchFileException(
              file.toString(),
              null,
              "parameter scope '"
                  + scope.getKey()
                  + "': "
                  + (Files.exists(file) ? "not a regular file" : "no such parameter archive"));
        }
      }
    }
  }

  static String quoted(Parameters parameters) {
    List<String> names = new ArrayList<>();
    for (String s : parameters.scopes().keySet()) {
      names.add("'" + s + "'");
    }
    return String.join(", ", names);
  }
}
