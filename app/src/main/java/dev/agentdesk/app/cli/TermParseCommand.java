package dev.agentdesk.app.cli;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.CaptureReplay;
import dev.agentdesk.terminal.parser.EventJson;
import dev.agentdesk.terminal.tcap.CaptureFormatException;
import dev.agentdesk.terminal.tcap.TcapReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code agentdesk term parse}: Replay a capture through the output parser and print one JSON event per line. */
@Command(name = "parse", mixinStandardHelpOptions = true,
    description = {
        "Replay a capture through the output parser and print one JSON event per line.",
        "FILE is a .tcap capture or a raw output capture (one output record). The bytes go through the raw OSC "
            + "scanner, the VT engine, the agent's chrome cutoff and the parser; timers run on the capture's "
            + "timestamps. Each line is an event plus at_ms (milliseconds since the capture started)."})
public final class TermParseCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--agent", defaultValue = "none", paramLabel = "AGENT", completionCandidates = Names.ParserAgents.class,
      description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  String agent;

  @Option(names = "--cols", defaultValue = "128", description = "Terminal width (default: ${DEFAULT-VALUE})")
  int cols;

  @Option(names = "--rows", defaultValue = "41", description = "Terminal height (default: ${DEFAULT-VALUE})")
  int rows;

  @Option(names = "--tail-ms", defaultValue = "15000", paramLabel = "MS",
      description = "Silence after the last record so pending timers fire (default: ${DEFAULT-VALUE})")
  long tailMs;

  @Parameters(index = "0", paramLabel = "FILE", description = "The capture (.tcap or raw).")
  Path file;

  @Override
  public Integer call() throws IOException {
    Agent a;
    try {
      a = Agent.fromCliName(agent);
    } catch (IllegalArgumentException e) {
      throw new UserError("--agent: " + e.getMessage());
    }
    if (cols < 1 || rows < 1 || cols > 4096 || rows > 4096) {
      throw new UserError("--cols and --rows must be between 1 and 4096 (got " + cols + "x" + rows + ")");
    }
    if (tailMs < 0) {
      throw new UserError("--tail-ms must not be negative (got " + tailMs + ")");
    }
    if (Files.isDirectory(file)) {
      throw new UserError(file + " is a directory; give a .tcap or raw capture file");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (TcapReader reader = TcapReader.open(file)) {
      CaptureReplay.replay(reader, a, cols, rows, tailMs, (at, e) -> out.println(EventJson.toJson(e, at)));
    } catch (NoSuchFileException e) {
      throw new UserError("no such file: " + file);
    } catch (CaptureFormatException e) {
      out.flush();
      throw new UserError(file + ": " + e.getMessage(), e);
    } finally {
      out.flush();
    }
    return 0;
  }
}
