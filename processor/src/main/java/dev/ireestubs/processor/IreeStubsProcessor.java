package dev.ireestubs.processor;

import com.google.auto.service.AutoService;
import com.palantir.javapoet.ClassName;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.processor.binding.InterfaceBinder;
import dev.ireestubs.processor.declaration.Annotations;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.DeclarationReader;
import dev.ireestubs.processor.derivation.ClientDerivation;
import dev.ireestubs.processor.diagnostics.ElementLocation;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.source.InputRecord;
import dev.ireestubs.processor.source.InterfaceSources;
import dev.ireestubs.processor.source.ReflectionLoader;
import dev.ireestubs.processor.source.SignatureSources;
import dev.ireestubs.processor.writing.StubGenerator;
import dev.ireestubs.processor.writing.StubWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.FilerException;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

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
 *
 * <p>One pipeline per interface, a package per step, each reading only the steps before it (its
 * {@code package-info} says what it does and what it reads):
 *
 * <ol>
 *   <li>{@code derivation}, derive mode (only for {@code @IreeClient} on a package): the module's
 *       interface derived and written, annotated {@code @IreeModule}; the next round takes it
 *       through the steps below like any interface;
 *   <li>{@code declaration}: the interface read once into plain values, with a location for each
 *       diagnostic ({@code diagnostics});
 *   <li>{@code source}: the reflection the interface names found and read, each method's
 *       signature found in it;
 *   <li>{@code binding}: Java types matched to the signatures' type records, every mismatch
 *       reported, into the stub's {@code model}, which holds no compiler type;
 *   <li>{@code writing}: the model written as the stub's code, printed by {@code printing}.
 * </ol>
 */
@AutoService(Processor.class)
public final class IreeStubsProcessor extends AbstractProcessor {

  /** The option naming a directory to look for reflection files in. */
  public static final String REFLECTION_DIR_OPTION = ReflectionLoader.REFLECTION_DIR_OPTION;

  private final StubGenerator generator;

  /** Interfaces waiting for types a later round may generate, by qualified name. */
  private final Set<String> deferred = new LinkedHashSet<>();

  /** The stubs written in this compilation, so that two interfaces never claim one name. */
  private StubNames stubNames;

  private Trees trees;

  /**
   * Interfaces derived by {@code @IreeClient}, by qualified name, with the package annotated: their
   * module is found beside the package's sources, and their failures are reported there too.
   */
  private final Map<String, ClientDerivation.Request> derived = new HashMap<>();

  /** What keeps the processor from working on its processor path, if anything. */
  private final Supplier<Optional<String>> setupCheck;

  /** Whether {@link #setupCheck} has been asked, and whether it found a problem. */
  private boolean setupChecked;

  private boolean setupBroken;

  /** The processor, as the compiler loads it. */
  public IreeStubsProcessor() {
    this(new StubWriter(IreeStubsProcessor.class.getName()));
  }

  /** A processor writing through {@code generator} (tests capture the models with it). */
  IreeStubsProcessor(StubGenerator generator) {
    this(generator, AbiJson::readerProblem);
  }

  /** A processor whose processor path {@code setupCheck} judges (tests stand in a bad one). */
  IreeStubsProcessor(StubGenerator generator, Supplier<Optional<String>> setupCheck) {
    this.generator = Objects.requireNonNull(generator);
    this.setupCheck = Objects.requireNonNull(setupCheck);
  }

  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    stubNames = new StubNames(env.getElementUtils(), env.getTypeUtils());
    try {
      trees = Trees.instance(env);
    } catch (RuntimeException | LinkageError e) {
      // Not javac, or javac behind a wrapper: diagnostics then go on the elements as they are.
      trees = null;
    }
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(Annotations.IREE_MODULE, Annotations.IREE_CLIENT, Annotations.IREE_CLIENTS);
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
      if (!setupIsBroken()) {
        processRound(round);
      }
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

  /**
   * Whether the processor path keeps the processor from working; asked on the first round, which
   * reports the problem (a check that throws is asked once too, and reported as an internal error).
   */
  private boolean setupIsBroken() {
    if (!setupChecked) {
      setupChecked = true;
      Optional<String> problem = setupCheck.get();
      setupBroken = problem.isPresent();
      if (setupBroken) {
        processingEnv
            .getMessager()
            .printMessage(
                Diagnostic.Kind.ERROR,
                Tag.BAD_SETUP.prefix()
                    + "the iree-stubs processor checks and generates nothing on this processor"
                    + " path: "
                    + problem.get());
      }
    }
    return setupBroken;
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
    deriveClients(round);
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

  /** Writes the interface of every {@code @IreeClient} of this round (checked next round). */
  private void deriveClients(RoundEnvironment round) {
    Set<PackageElement> packages = new TreeSet<>(Comparator.comparing(p -> p.getQualifiedName().toString()));
    for (String name : List.of(Annotations.IREE_CLIENT, Annotations.IREE_CLIENTS)) {
      TypeElement annotation = processingEnv.getElementUtils().getTypeElement(name);
      if (annotation != null) {
        for (Element e : round.getElementsAnnotatedWith(annotation)) {
          if (e instanceof PackageElement) {
            packages.add((PackageElement) e);
          }
        }
      }
    }
    ClientDerivation derivation =
        new ClientDerivation(
            processingEnv.getFiler(),
            processingEnv.getElementUtils(),
            IreeStubsProcessor.class.getName());
    for (PackageElement pkg : packages) {
      for (AnnotationMirror mirror : ClientDerivation.mirrors(pkg)) {
        Reporter report = new Reporter(pkg, this::hasSource);
        ClientDerivation.Request request = derivation.request(pkg, mirror);
        try {
          derivation
              .derive(request, loader(pkg), report)
              .ifPresent(name -> derived.put(name, request));
          report.flush(processingEnv.getMessager());
        } catch (IOException | RuntimeException | LinkageError | AssertionError e) {
          report.flush(processingEnv.getMessager());
          processingEnv
              .getMessager()
              .printMessage(
                  Diagnostic.Kind.ERROR,
                  Tag.INTERNAL_ERROR.prefix()
                      + "the iree-stubs processor failed deriving a client for package "
                      + pkg.getQualifiedName()
                      + "; please report this with the stack trace: "
                      + stackTrace(e),
                  pkg,
                  mirror);
        }
      }
    }
  }

  private ReflectionLoader loader(Element besideSourcesOf) {
    return new ReflectionLoader(
        processingEnv.getFiler(),
        Optional.ofNullable(processingEnv.getOptions().get(REFLECTION_DIR_OPTION)),
        resourceFoldersBeside(besideSourcesOf));
  }

  private void processInterface(TypeElement element, boolean last) {
    Reporter report = new Reporter(element, this::hasSource);
    ClientDerivation.Request origin = derived.get(element.getQualifiedName().toString());
    try {
      processInterface(element, last, report, origin);
    } finally {
      if (origin != null && report.hasErrors()) {
        processingEnv
            .getMessager()
            .printMessage(
                Diagnostic.Kind.ERROR,
                Tag.BAD_INTERFACE.prefix()
                    + "the interface "
                    + element.getQualifiedName()
                    + " derived by this @IreeClient does not check against its module (see the"
                    + " errors on it); please report this, and write the interface by hand"
                    + " meanwhile (cli inspect --package prints it)",
                origin.pkg(),
                origin.mirror());
      }
    }
  }

  private void processInterface(
      TypeElement element, boolean last, Reporter report, ClientDerivation.Request origin) {
    try {
      Optional<AnnotationMirror> module = Annotations.find(element, Annotations.IREE_MODULE);
      if (module.isEmpty()) {
        return;
      }
      Optional<Declaration> declaration =
          new DeclarationReader(
                  processingEnv.getElementUtils(), processingEnv.getTypeUtils(), this::hasSource)
              .read(element, module.get(), report);
      if (declaration.isPresent() && !declaration.get().unresolved().isEmpty()) {
        if (!last) {
          // Another processor may generate them: try again next round, before reading any file
          // and reporting nothing now.
          deferred.add(element.getQualifiedName().toString());
          return;
        }
        DeclarationReader.reportUnresolved(declaration.get(), report);
      }
      // A derived interface is in generated sources: its module is beside the package-info.
      ReflectionLoader loader = loader(origin == null ? element : origin.pkg());
      Optional<InterfaceSources> sources =
          declaration.map(d -> SignatureSources.find(d, loader, report));
      Optional<StubModel> model =
          sources
              .flatMap(s -> InterfaceBinder.bind(declaration.get(), s, report))
              .filter(m -> stubNames.claim(m, element, report));
      if (model.isEmpty() && !report.hasErrors()) {
        // Every path that yields no model reports why; this is the net under that promise.
        report.error(
            Tag.INTERNAL_ERROR,
            "the iree-stubs processor wrote no stub for "
                + element.getQualifiedName()
                + " and found nothing wrong with it; please report this",
            ElementLocation.of(element));
      }
      report.flush(processingEnv.getMessager());
      if (model.isPresent() && !report.hasErrors()) {
        generator.write(model.get(), (name, text) -> writeSource(name, text, element));
        InputRecord.write(
            processingEnv.getFiler(),
            processingEnv.getElementUtils(),
            element,
            model.get().stubName().reflectionName(),
            sources.get().inputs());
      }
    } catch (FilerException e) {
      fail(
          element,
          report,
          Tag.BAD_INTERFACE,
          "cannot write the stub of "
              + element.getQualifiedName()
              + ": "
              + e.getMessage()
              + "; another type of this compilation has its name (stubs are named"
              + " Iree_<Outer>_<Inner>); rename one of them");
    } catch (IOException e) {
      fail(
          element,
          report,
          Tag.INTERNAL_ERROR,
          "cannot write the stub of " + element.getQualifiedName() + ": " + e);
    } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
      fail(
          element,
          report,
          Tag.INTERNAL_ERROR,
          "the iree-stubs processor failed on "
              + element.getQualifiedName()
              + "; please report this with the stack trace: "
              + stackTrace(e));
    }
  }

  /** Prints what was reported on {@code element}, then the failure that ended its processing. */
  private void fail(TypeElement element, Reporter report, Tag tag, String message) {
    report.flush(processingEnv.getMessager());
    processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, tag.prefix() + message, element);
  }

  /** Writes a stub's source through the Filer, with its interface as the one originating element. */
  private void writeSource(ClassName name, String text, TypeElement originating)
      throws IOException {
    JavaFileObject source = processingEnv.getFiler().createSourceFile(name.canonicalName(), originating);
    try (Writer out = source.openWriter()) {
      out.write(text);
    }
  }

  /**
   * The resource folders beside the source folder of {@code element}'s source file (see {@link
   * ReflectionLoader#resourceFoldersBeside}); empty when the compiler cannot say where it is.
   */
  private List<Path> resourceFoldersBeside(Element element) {
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
