package dev.agentdesk.app.cli;

import dev.agentdesk.app.termrun.TermRun;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.session.AgentDetector;
import dev.agentdesk.terminal.session.SessionException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code agentdesk term run}: Run a command in a supervised PTY attached to this terminal, writing parsed events. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {
        "Run a command in a supervised PTY attached to this terminal, writing parsed events.",
        "Keys go to the command unchanged (this terminal is put in raw mode and restored after), window size "
            + "changes are forwarded, and the command's exit status is passed through. With --events, every parsed "
            + "event and state change (busy/idle, awaiting input, choice prompts, rate limits, usage, exit) is "
            + "written as one JSON object per line while the command runs."})
public final class TermRunCommand implements Callable<Integer> {
  @Option(names = "--agent", paramLabel = "NAME", completionCandidates = Names.ParserAgents.class,
      description = "The agent the command runs: ${COMPLETION-CANDIDATES} (default: detected from the command)")
  String agent;

  @Option(names = "--capture", paramLabel = "FILE.tcap",
      description = "Capture both directions into a framed .tcap file (replay it with 'agentdesk term parse').")
  Path capture;

  @Option(names = "--events", paramLabel = "FILE.jsonl", description = "Write events and state changes here.")
  Path events;

  @Parameters(arity = "1..*", paramLabel = "CMD", description = "The command and its arguments (put them after --).")
  List<String> command;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Optional<Agent> a = Optional.empty();
    if (agent != null) {
      try {
        a = Optional.of(AgentDetector.named(agent));
      } catch (SessionException e) {
        throw new UserError("--agent: " + e.getMessage());
      }
    }
    checkWritable("--capture", capture);
    checkWritable("--events", events);
    try {
      return TermRun.run(new TermRun.Options(a, Optional.ofNullable(capture), Optional.ofNullable(events), command),
          new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out));
    } catch (SessionException e) {
      if (e.isUserError()) {
        throw new UserError(e.getMessage(), e);
      }
      throw e;
    }
  }

  private static void checkWritable(String option, Path file) {
    if (file == null) {
      return;
    }
    if (Files.isDirectory(file)) {
      throw new UserError(option + ": " + file + " is a directory; give a file name");
    }
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new UserError(option + ": directory " + dir + " does not exist");
    }
    if (Files.exists(file) ? !Files.isWritable(file) : dir != null && !Files.isWritable(dir)) {
      throw new UserError(option + ": cannot write " + file);
    }
  }
}
