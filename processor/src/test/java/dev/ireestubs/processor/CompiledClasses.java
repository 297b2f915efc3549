package dev.ireestubs.processor;

import com.google.testing.compile.Compilation;
import dev.ireestubs.invoke.ModuleBackend;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import javax.tools.JavaFileObject;

/** Loads the classes a compile-testing compilation produced, so tests can run generated stubs. */
public final class CompiledClasses extends ClassLoader {
  private final Map<String, byte[]> classes = new HashMap<>();

  public CompiledClasses(Compilation compilation) {
    this(compilation, CompiledClasses.class.getClassLoader());
  }

  /** The classes of {@code compilation}, seeing everything else through {@code parent}. */
  public CompiledClasses(Compilation compilation, ClassLoader parent) {
    super(parent);
    for (JavaFileObject f : compilation.generatedFiles()) {
      if (f.getKind() != JavaFileObject.Kind.CLASS) {
        continue;
      }
      // compile-testing names class files /CLASS_OUTPUT/pkg/Name.class
      String name = f.toUri().getPath();
      name = name.substring(name.indexOf("CLASS_OUTPUT/") + "CLASS_OUTPUT/".length());
      name = name.substring(0, name.length() - ".class".length()).replace('/', '.');
      try (InputStream in = f.openInputStream()) {
        classes.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = classes.get(name);
    if (bytes == null) {
      throw new ClassNotFoundException(name);
    }
    return defineClass(name, bytes, 0, bytes.length);
  }

  /**
   * Calls the method {@code name} of {@code iface} taking {@code args.length} parameters on {@code
   * stub}, rethrowing what the method threw rather than the reflective wrapper. (By name and count:
   * an interface may overload a name, and {@code getMethods()} has no fixed order.)
   */
  public static Object call(Class<?> iface, Object stub, String name, Object... args)
      throws Exception {
    for (Method m : iface.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(stub, args);
        } catch (InvocationTargetException e) {
          if (e.getCause() instanceof Exception) {
            throw (Exception) e.getCause();
          }
          throw e;
        }
      }
    }
    throw new AssertionError("no method " + name);
  }

  /** A new instance of the generated stub {@code test.Iree_NAME}, calling {@code backend}. */
  public Object stub(String name, ModuleBackend backend) throws Exception {
    return load("test.Iree_" + name).getConstructor(ModuleBackend.class).newInstance(backend);
  }

  public Class<?> load(String name) {
    try {
      return loadClass(name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(name + " was not compiled; compiled: " + classes.keySet(), e);
    }
  }
}
