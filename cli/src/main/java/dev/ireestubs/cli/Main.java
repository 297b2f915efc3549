package dev.ireestubs.cli;

import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

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
      "usage: java -jar iree-stubs-cli.jar inspect <module.vmfb>\n"
          + "\n"
          + "commands:\n"
          + "  inspect <module.vmfb>  print a compiled IREE module's exports, their signatures and\n"
          + "                         reflection, and a Java interface for it to use with\n"
          + "                         @IreeModule(vmfb = ...)\n"
          + "  help                   print this text\n";

  private Main() {}

  /** Runs the command line and exits with its status. */
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
    switch (args[0]) {
      case "inspect":
        if (args.length != 2) {
          err.print(
              "inspect takes one file, the module to inspect; got "
                  + (args.length - 1)
                  + " arguments\n"
                  + USAGE_TEXT);
          return USAGE;
        }
        return inspect(args[1], out, err);
      case "help":
      case "-h":
      case "--help":
        out.print(USAGE_TEXT);
        return OK;
      default:
        err.print("unknown command '" + args[0] + "'\n" + USAGE_TEXT);
        return USAGE;
    }
  }

  private static int inspect(String file, PrintStream out, PrintStream err) {
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
    Path name = path.getFileName();
    out.print(new Inspector(module, name == null ? file : name.toString()).report());
    out.flush();
    return OK;
  }
}
