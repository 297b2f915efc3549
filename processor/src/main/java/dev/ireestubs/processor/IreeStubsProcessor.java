package dev.ireestubs.processor;

import com.google.auto.service.AutoService;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * The iree-stubs annotation processor: checks every {@code @IreeModule} interface against its
 * module's reflection at compile time, reporting each mismatch as an error on the exact element,
 * and writes the typed stub {@code Iree_<Interface>} for each interface that binds.
 *
 * <p>Option {@code -Airee.reflectionDir=<directory>}: a directory searched first for the files
 * named by {@code @IreeModule(abi = ...)} and {@code @IreeModule(vmfb = ...)} (for builds that do
 * not put resources on the class output before compiling, such as Gradle's).
 *
 * <p>An interface that refers to a type not generated yet is checked in a later round; one that
 * still refers to an unknown type after the last round is an error. No exception escapes: a
 * failure of the processor itself is reported on the interface with its stack trace.
 */
@AutoService(Processor.class)
public final class IreeStubsProcessor extends AbstractProcessor {

  /** The option naming a directory to look for reflection files in. */
  public static final String REFLECTION_DIR_OPTION = "iree.reflectionDir";

  private final StubGenerator generator;

  /** Interfaces waiting for types a later round may generate, by qualified name. */
  private final Set<String> deferred = new LinkedHashSet<>();

  private Trees trees;

  /** The processor, as the compiler loads it. */
  public IreeStubsProcessor() {
    this(new StubWriter());
  }

  /** A processor writing through {@code generator} (tests capture the models with it). */
  IreeStubsProcessor(StubGenerator generator) {
    this.generator = Objects.requireNonNull(generator);
  }

  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    try {
      trees = Trees.instance(env);
    } catch (RuntimeException | LinkageError e) {
      // Not javac, or javac behind a wrapper: diagnostics then go on the elements as they are.
      trees = null;
    }
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(Annotations.IREE_MODULE);
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(REFLECTION_DIR_OPTION);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    try {
      processRound(round);
    } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
      processingEnv
          .getMessager()
          .printMessage(
              Diagnostic.Kind.ERROR,
              Tag.INTERNAL_ERROR.prefix()
                  + "the iree-stubs processor failed; please report this with the stack trace: "
                  + stackTrace(e));
    }
    return false;
  }

  private void processRound(RoundEnvironment round) {
    boolean last = round.processingOver();
    List<TypeElement> todo = new ArrayList<>();
    for (String name : deferred) {
      TypeElement e = processingEnv.getElementUtils().getTypeElement(name);
      if (e != null) {
        todo.add(e);
      }
    }
    deferred.clear();
    TypeElement annotation = processingEnv.getElementUtils().getTypeElement(Annotations.IREE_MODULE);
    if (annotation != null) {
      List<TypeElement> fresh = new ArrayList<>();
      for (Element e : round.getElementsAnnotatedWith(annotation)) {
        if (e instanceof TypeElement && !todo.contains(e)) {
          fresh.add((TypeElement) e);
        }
      }
      fresh.sort(Comparator.comparing(t -> t.getQualifiedName().toString()));
      todo.addAll(fresh);
    }
    for (TypeElement e : todo) {
      processInterface(e, last);
    }
  }

  private void processInterface(TypeElement element, boolean last) {
    Reporter report = new Reporter(element, this::hasSource);
    try {
      Optional<AnnotationMirror> module = Annotations.find(element, Annotations.IREE_MODULE);
      if (module.isEmpty()) {
        return;
      }
      ReflectionLoader loader =
          new ReflectionLoader(
              processingEnv.getFiler(),
              Optional.ofNullable(processingEnv.getOptions().get(REFLECTION_DIR_OPTION)),
              resourceFoldersBeside(element));
      ModuleBinder binder =
          new ModuleBinder(
              processingEnv.getElementUtils(), processingEnv.getTypeUtils(), loader, this::hasSource);
      Optional<StubModel> model = binder.bind(element, module.get(), report);
      Set<String> unresolved = binder.unresolvedTypes();
      if (!unresolved.isEmpty()) {
        if (!last) {
          // Another processor may generate them: try again next round, reporting nothing now.
          deferred.add(element.getQualifiedName().toString());
          return;
        }
        report.error(
            Tag.UNRESOLVED_TYPE,
            "cannot check "
                + element.getSimpleName()
                + " against its module: "
                + (unresolved.size() == 1 ? "type " : "types ")
                + String.join(", ", unresolved)
                + (unresolved.size() == 1 ? " is" : " are")
                + " not known, even after the last round of annotation processing; import or"
                + " declare "
                + (unresolved.size() == 1 ? "it" : "them"),
            element);
      }
      if (model.isEmpty() && !report.hasErrors()) {
        // Every path that yields no model reports why; this is the net under that promise.
        report.error(
            Tag.INTERNAL_ERROR,
            "the iree-stubs processor wrote no stub for "
                + element.getQualifiedName()
                + " and found nothing wrong with it; please report this",
            element);
      }
      report.flush(processingEnv.getMessager());
      if (model.isPresent() && !report.hasErrors()) {
        generator.write(model.get(), processingEnv.getFiler());
        InputRecord.write(
            processingEnv.getFiler(),
            processingEnv.getElementUtils(),
            element,
            model.get().stubName().reflectionName(),
            loader.inputs());
      }
    } catch (IOException e) {
      report.flush(processingEnv.getMessager());
      processingEnv
          .getMessager()
          .printMessage(
              Diagnostic.Kind.ERROR,
              Tag.INTERNAL_ERROR.prefix()
                  + "cannot write the stub of "
                  + element.getQualifiedName()
                  + ": "
                  + e,
              element);
    } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
      report.flush(processingEnv.getMessager());
      processingEnv
          .getMessager()
          .printMessage(
              Diagnostic.Kind.ERROR,
              Tag.INTERNAL_ERROR.prefix()
                  + "the iree-stubs processor failed on "
                  + element.getQualifiedName()
                  + "; please report this with the stack trace: "
                  + stackTrace(e),
              element);
    }
  }

  /**
   * The resource folders beside the source folder of {@code element}'s source file (see {@link
   * ReflectionLoader#resourceFoldersBeside}); empty when the compiler cannot say where it is.
   */
  private List<Path> resourceFoldersBeside(TypeElement element) {
    if (trees == null) {
      return List.of();
    }
    try {
      TreePath path = trees.getPath(element);
      if (path == null) {
        return List.of();
      }
      URI uri = path.getCompilationUnit().getSourceFile().toUri();
      if (!"file".equalsIgnoreCase(uri.getScheme())) {
        return List.of();
      }
      return ReflectionLoader.resourceFoldersBeside(
          Paths.get(uri),
          processingEnv.getElementUtils().getPackageOf(element).getQualifiedName().toString());
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  /** True when {@code e} was compiled from source in this compilation (so it has lines). */
  private boolean hasSource(Element e) {
    if (trees == null) {
      return true;
    }
    Element top = e;
    for (Element up = e; up != null; up = up.getEnclosingElement()) {
      if (up instanceof TypeElement) {
        top = up;
      }
    }
    try {
      return trees.getPath(top) != null;
    } catch (RuntimeException ex) {
      return true;
    }
  }

  private static String stackTrace(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }
}
