package dev.ireestubs.processor;

import com.google.auto.service.AutoService;
import com.palantir.javapoet.ClassName;
import dev.ireestubs.processor.binding.InterfaceBinder;
import dev.ireestubs.processor.declaration.Annotations;
import dev.ireestubs.processor.declaration.ClientDeclaration;
import dev.ireestubs.processor.declaration.ClientReader;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.DeclarationReader;
import dev.ireestubs.processor.derivation.ClientDerivation;
import dev.ireestubs.processor.diagnostics.ElementLocation;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.SourceFiles;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.source.ClientSource;
import dev.ireestubs.processor.source.ClientSources;
import dev.ireestubs.processor.source.InputRecord;
import dev.ireestubs.processor.source.InterfaceSources;
import dev.ireestubs.processor.source.ReflectionLoader;
import dev.ireestubs.processor.source.SignatureSources;
import dev.ireestubs.processor.writing.StubGenerator;
import dev.ireestubs.processor.writing.StubWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 * still refers to an unknown type after the last round is an error. No exception escapes: a failure
 * of the processor itself is reported on the interface with its stack trace.
 *
 * <p>This class only runs the steps, in order; each is a package that reads only the steps before
 * it (its {@code package-info} says what it does):
 *
 * <ol>
 *   <li>{@code declaration}: the interface read once into plain values, and every type it names
 *       that does not resolve (the interface then waits for a later round);
 *   <li>{@code source}: the reflection the interface names read, each method's signature found in
 *       it;
 *   <li>{@code binding}: Java types matched to the signatures' type records, every mismatch
 *       reported, into the stub's {@code model}, which holds no compiler type;
 *   <li>{@code writing}: the model written as the stub's code, printed by {@code printing}.
 * </ol>
 *
 * <p>Derive mode ({@code @IreeClient} on a package) goes through the same first steps: the
 * annotation read by the declaration step, the module it names by the sources step, then {@code
 * derivation} derives the interface and writes it annotated {@code @IreeModule}; the next round
 * takes it through the steps above like any interface.
 *
 * <p>Every step reports through {@code diagnostics}; {@code names} holds the naming rules they
 * share.
 */
@AutoService(Processor.class)
public final class IreeStubsProcessor extends AbstractProcessor {

  /** The option naming a directory to look for reflection files in. */
  public static final String REFLECTION_DIR_OPTION = ReflectionLoader.REFLECTION_DIR_OPTION;

  private final StubGenerator generator;

  /** Interfaces waiting for types a later round may generate, by qualified name. */
  private final Set<String> deferred = new LinkedHashSet<>();

  /** Interfaces derived by {@code @IreeClient}, by qualified name, with the annotation. */
  private final Map<String, ClientDeclaration> derived = new HashMap<>();

  private SourceFiles sourceFiles;
  private ClientReader clientReader;
  private ClientDerivation derivation;
  private StubNames stubNames;

  /** The processor, as the compiler loads it. */
  public IreeStubsProcessor() {
    this(new StubWriter(IreeStubsProcessor.class.getName()));
  }

  /** A processor writing through {@code generator} (tests capture the models with it). */
  IreeStubsProcessor(StubGenerator generator) {
    this.generator = Objects.requireNonNull(generator);
  }

  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    sourceFiles = SourceFiles.of(env);
    clientReader = new ClientReader(env.getElementUtils());
    derivation =
        new ClientDerivation(
            env.getFiler(), env.getElementUtils(), IreeStubsProcessor.class.getName());
    stubNames = new StubNames(env.getElementUtils(), env.getTypeUtils());
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
      List<TypeElement> interfaces = waiting();
      clientReader.annotated(round).forEach(this::derive);
      interfaces.addAll(annotated(round, interfaces));
      for (TypeElement e : interfaces) {
        process(e, round.processingOver());
      }
    } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
      error(
          Tag.INTERNAL_ERROR.prefix()
              + "the iree-stubs processor failed; please report this with the stack trace: "
              + Messages.stackTrace(e),
          null);
    }
    return false;
  }

  /** The interfaces that waited for this round, no longer waiting. */
  private List<TypeElement> waiting() {
    List<TypeElement> out = new ArrayList<>();
    for (String name : deferred) {
      TypeElement e = processingEnv.getElementUtils().getTypeElement(name);
      if (e != null) {
        out.add(e);
      }
    }
    deferred.clear();
    return out;
  }

  /** The interfaces annotated {@code @IreeModule} in this round, but {@code seen}, by name. */
  private List<TypeElement> annotated(RoundEnvironment round, List<TypeElement> seen) {
    List<TypeElement> out = new ArrayList<>();
    TypeElement annotation =
        processingEnv.getElementUtils().getTypeElement(Annotations.IREE_MODULE);
    if (annotation != null) {
      for (Element e : round.getElementsAnnotatedWith(annotation)) {
        if (e instanceof TypeElement typeElement && !seen.contains(e)) {
          out.add(typeElement);
        }
      }
    }
    out.sort(Comparator.comparing(t -> t.getQualifiedName().toString()));
    return out;
  }

  /**
   * Derive mode's steps on one {@code @IreeClient}: its values checked, the module it names read,
   * its interface derived and written (checked in the next round). What fails in the processor
   * itself is reported on the annotation.
   */
  private void derive(ClientDeclaration client) {
    Reporter report = new Reporter(client.pkg(), sourceFiles::hasSource);
    try {
      if (ClientReader.check(client, report)) {
        ReflectionLoader loader = ReflectionLoader.beside(client.pkg(), processingEnv, sourceFiles);
        Optional<ClientSource> source = ClientSources.find(client, loader, report);
        if (source.isPresent()) {
          derivation
              .derive(client, source.get(), report)
              .ifPresent(name -> derived.put(name, client));
        }
      }
      report.flush(processingEnv.getMessager());
    } catch (IOException | RuntimeException | LinkageError | AssertionError e) {
      report.flush(processingEnv.getMessager());
      ClientDerivation.reportFailure(client, e, processingEnv.getMessager());
    }
  }

  /** Takes one interface through the steps; what fails in the processor itself is reported. */
  private void process(TypeElement element, boolean lastRound) {
    Optional<AnnotationMirror> module = Annotations.find(element, Annotations.IREE_MODULE);
    if (module.isEmpty()) {
      return;
    }
    String name = element.getQualifiedName().toString();
    Reporter report = new Reporter(element, sourceFiles::hasSource);
    ClientDeclaration origin = derived.get(name);
    try {
      runSteps(element, module.get(), lastRound, origin, report);
    } catch (FilerException e) {
      fail(
          element,
          report,
          Tag.BAD_INTERFACE,
          "cannot write the stub of "
              + name
              + ": "
              + e.getMessage()
              + "; another type of this compilation has its name (stubs are named"
              + " Iree_<Outer>_<Inner>); rename one of them");
    } catch (IOException e) {
      fail(element, report, Tag.INTERNAL_ERROR, "cannot write the stub of " + name + ": " + e);
    } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
      fail(
          element,
          report,
          Tag.INTERNAL_ERROR,
          "the iree-stubs processor failed on "
              + name
              + "; please report this with the stack trace: "
              + Messages.stackTrace(e));
    } finally {
      if (origin != null && report.hasErrors() && !deferred.contains(name)) {
        ClientDerivation.reportNotChecking(origin, element, processingEnv.getMessager());
      }
    }
  }

  /**
   * The steps on one interface, in order: its declaration (and, before any file is read, whether it
   * waits for a later round), the sources of its signatures, their binding, and when nothing was
   * reported its stub.
   */
  private void runSteps(
      TypeElement element,
      AnnotationMirror module,
      boolean lastRound,
      ClientDeclaration origin,
      Reporter report)
      throws IOException {
    Optional<Declaration> declaration =
        new DeclarationReader(
                processingEnv.getElementUtils(),
                processingEnv.getTypeUtils(),
                sourceFiles::hasSource)
            .read(element, module, report);
    if (declaration.isPresent() && !declaration.get().unresolved().isEmpty()) {
      if (!lastRound) {
        // Another processor may generate them: wait for the next round, reporting nothing now.
        deferred.add(element.getQualifiedName().toString());
        return;
      }
      DeclarationReader.reportUnresolved(declaration.get(), report);
    }
    // A derived interface is in generated sources: its module is beside the package-info.
    Element besideSources = origin == null ? element : origin.pkg();
    Optional<InterfaceSources> sources =
        declaration.map(
            d ->
                SignatureSources.find(
                    d, ReflectionLoader.beside(besideSources, processingEnv, sourceFiles), report));
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
  }

  /** Prints what was reported on {@code element}, then the failure that ended its processing. */
  private void fail(TypeElement element, Reporter report, Tag tag, String message) {
    report.flush(processingEnv.getMessager());
    error(tag.prefix() + message, element);
  }

  /** Prints an error on {@code element}, or on no element when it is null. */
  private void error(String message, Element element) {
    if (element == null) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, message);
    } else {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, message, element);
    }
  }

  /**
   * Writes a stub's source through the Filer, with its interface as the one originating element.
   */
  private void writeSource(ClassName name, String text, TypeElement originating)
      throws IOException {
    try (Writer out =
        processingEnv.getFiler().createSourceFile(name.canonicalName(), originating).openWriter()) {
      out.write(text);
    }
  }
}
