package dev.agentdesk.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code agentdesk term}: terminal tools built on the VT engine and the output parser. */
@Command(
    name = "term",
    mixinStandardHelpOptions = true,
    description = "Terminal tools: render a byte stream with the VT engine, parse agent output, run an agent in a PTY.",
    subcommands = {TermRenderCommand.class, TermParseCommand.class, TermRunCommand.class})
public final class TermCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
