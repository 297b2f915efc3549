package dev.ireestubs.cli;

import dev.ireestubs.derive.ClientDeriver;
import dev.ireestubs.derive.InterfaceWriter;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.lang.model.SourceVersion;

/**
 * The iree-stubs command line: {@code java -jar iree-stubs-cli.jar inspect model.vmfb} prints a
 * compiled IREE module's exports, their signatures and reflection attributes, and a Java interface
 * for it that {@code @IreeModule(vmfb = "model.vmfb")} checks against the module.
 *
 * <p>Exit status: 0 on success, 1 when the file cannot be read as a module, 2 for a usage error.
 */
public final class Main {

  /** Exit status when the command ran. */
  public static final int OK = 0;

  /** Exit status when the input could not be read or is not a module. */
  public static final int FAILED = 1;

  /** Exit status for a missing or unknown command or a wrong number of arguments. */
  public static final int USAGE = 2;

  static final String USAGE_TEXT =
      """
      usage: java -jar iree-stubs-cli.jar inspect [--package <p>] [--name <N>] <module.vmfb>

      commands:
        inspect <module.vmfb>  print a compiled IREE module's exports, their signatures and
                               reflection, and a Java interface for it to use with
                               @IreeModule(vmfb = ...)
        inspect --package <p> [--name <N>] <module.vmfb>
                               print only the client @IreeClient would derive, as one source
                               file of package p (interface N, else the module's name)
        help                   print this text
      """;

  private Main() {}

  /**
   * Runs the command line and exits with its status: 0 on success, non-zero on a usage error or an
   * unreadable module.
   *
   * @param args the command and its arguments, as the usage text describes
   */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs one command; never calls {@link System#exit}.
   *
   * @param args the command and its arguments
   * @param out where results go
   * @param err where usage and errors go
   * @return the exit status: {@link #OK}, {@link #FAILED} or {@link #USAGE}
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Objects.requireNonNull(args, "args");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    if (args.length == 0) {
      err.print("no command given\n" + USAGE_TEXT);
      return USAGE;
    }
    return switch (args[0]) {
      case "inspect" -> inspect(Arrays.copyOfRange(args, 1, args.length), out, err);
      case "help", "-h", "--help" -> {
        out.print(USAGE_TEXT);
        yield OK;
      }
      default -> {
        err.print("unknown command '" + args[0] + "'\n" + USAGE_TEXT);
        yield USAGE;
      }
    };
  }

  private static int inspect(String[] args, PrintStream out, PrintStream err) {
    Optional<String> packageName = Optional.empty();
    Optional<String> name = Optional.empty();
    List<String> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--package") || a.equals("--name")) {
        if (i + 1 >= args.length) {
          err.print(a + " needs a value\n" + USAGE_TEXT);
          return USAGE;
        }
        String v = args[++i];
        if (a.equals("--package")) {
          if (!SourceVersion.isName(v)) {
            err.print("--package " + v + " is not a Java package name\n" + USAGE_TEXT);
            return USAGE;
          }
          packageName = Optional.of(v);
        } else {
          if (!SourceVersion.isIdentifier(v) || SourceVersion.isKeyword(v)) {
            err.print("--name " + v + " is not a Java type name\n" + USAGE_TEXT);
            return USAGE;
          }
          name = Optional.of(v);
        }
      } else {
        files.add(a);
      }
    }
    if (files.size() != 1) {
      err.print(
          "inspect takes one file, the module to inspect; got "
              + files.size()
              + " arguments\n"
              + USAGE_TEXT);
      return USAGE;
    }
    if (name.isPresent() && packageName.isEmpty()) {
      err.print(
          "--name needs --package (it names the client printed as a source file)\n" + USAGE_TEXT);
      return USAGE;
    }
    String file = files.get(0);
    Path path;
    try {
      path = Path.of(file);
    } catch (InvalidPathException e) {
      err.println("not a file path: " + e.getMessage());
      return FAILED;
    }
    VmfbModule module;
    try {
      module = VmfbReader.read(path);
    } catch (VmfbFormatException e) {
      err.println(e.getMessage());
      return FAILED;
    } catch (NoSuchFileException e) {
      err.println(file + ": no such file");
      return FAILED;
    } catch (IOException e) {
      err.println(file + ": cannot read the file: " + e);
      return FAILED;
    }
    Path base = path.getFileName();
    String vmfb = base == null ? file : base.toString();
    if (packageName.isPresent()) {
      out.print(InterfaceWriter.write(ClientDeriver.derive(module, vmfb, name), packageName.get()));
    } else {
      out.print(new Inspector(module, vmfb).report());
    }
    out.flush();
    return OK;
  }
}
