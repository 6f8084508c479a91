package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk term render}: Feed a raw byte stream or .tcap capture through the VT engine and print the final screen. */
@Command(name = "render", mixinStandardHelpOptions = true, description = "Feed a raw byte stream or .tcap capture through the VT engine and print the final screen.")
public final class TermRenderCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk term render' is not built yet in this version; see README.md for what works today");
  }
}
