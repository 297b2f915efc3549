package dev.ireestubs.processor;

import com.google.auto.service.AutoService;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import com.palantir.javapoet.ClassName;
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
import java.util.Map;
import java.util.TreeSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
 * <p>One pipeline per interface, each step a class named for it:
 *
 * <ol>
 *   <li>derive mode (only for {@code @IreeClient} on a package): {@link ClientDerivation} has
 *       {@code dev.ireestubs.derive.ClientDeriver} (shared with the cli) derive the module's
 *       interface and writes it, annotated {@code @IreeModule}, with the package as its originating
 *       element; the next round takes it through the steps below like any interface;
 *   <li>declaration: {@link DeclarationReader} (with {@link TypeReader}) reads the interface once
 *       into a {@link Declaration} of plain values ({@link JavaType}s, records, annotations, a
 *       {@link Location} per diagnostic);
 *   <li>signature sources: {@link ModuleReflection} reads the module file or compiled module,
 *       {@link SignatureSources} yields each method's {@link FunctionSource} (found through {@link
 *       ReflectionLoader});
 *   <li>binder: {@link InterfaceBinder} has {@link MethodBinder}, {@link ValueBinder}, {@link
 *       ArrayBinder}, {@link StructureBinder}, {@link KeyMatcher} and {@link PyDmBinder} match Java
 *       types to type records through {@code dev.ireestubs.abi.JavaMapping}, reporting through
 *       {@link Reporter} in the words of {@link Wording}, into a {@link StubModel}: one sealed
 *       {@link CallPlan} per method, of {@link ValueBinding}s, with no compiler type in it;
 *   <li>writer: {@link StubWriter} prints the model as laid out by {@link StubLayout} ({@link
 *       StubScope} for hygienic names): {@link CallWriter}, {@link ValueCode} and {@link SipCode}
 *       print the calls, {@link SignatureCode} and {@link FunctionConstants} the signatures as
 *       code, all as {@link Code} fragments; {@link JavaSource} prints the class once, imports
 *       chosen. {@link StubNames} keeps two interfaces from claiming one stub name.
 * </ol>
 */
@AutoService(Processor.class)
public final class IreeStubsProcessor extends AbstractProcessor {

  /** The option naming a directory to look for reflection files in. */
  public static final String REFLECTION_DIR_OPTION = "iree.reflectionDir";

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
        new ClientDerivation(processingEnv.getFiler(), processingEnv.getElementUtils());
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
      // A derived interface is in generated sources: its module is beside the package-info.
      ReflectionLoader loader = loader(origin == null ? element : origin.pkg());
      Optional<Declaration> declaration =
          new DeclarationReader(
                  processingEnv.getElementUtils(), processingEnv.getTypeUtils(), this::hasSource)
              .read(element, module.get(), report);
      InterfaceBinder.Outcome outcome =
          declaration
              .map(d -> InterfaceBinder.bind(d, loader, report))
              .orElse(new InterfaceBinder.Outcome(Optional.empty(), Set.of()));
      Set<String> unresolved = outcome.unresolved();
      if (!unresolved.isEmpty()) {
        if (!last) {
          // Another processor may generate them: try again next round, reporting nothing now.
          deferred.add(element.getQualifiedName().toString());
          return;
        }
        reportUnresolved(element, unresolved, report);
      }
      Optional<StubModel> model = outcome.model().filter(m -> stubNames.claim(m, element, report));
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
            loader.inputs());
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

  private static void reportUnresolved(
      TypeElement element, Set<String> unresolved, Reporter report) {
    boolean one = unresolved.size() == 1;
    report.error(
        Tag.UNRESOLVED_TYPE,
        "cannot check "
            + element.getSimpleName()
            + " against its module: "
            + (one ? "type " : "types ")
            + String.join(", ", unresolved)
            + (one ? " is" : " are")
            + " not known, even after the last round of annotation processing; import or"
            + " declare "
            + (one ? "it" : "them"),
        ElementLocation.of(element));
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
