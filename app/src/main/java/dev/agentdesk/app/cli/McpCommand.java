package dev.agentdesk.app.cli;

import dev.agentdesk.app.AppVersion;
import dev.agentdesk.app.history.DbOption;
import dev.agentdesk.app.serve.ServerClient;
import dev.agentdesk.app.serve.mcp.RemotePorts;
import dev.agentdesk.mcp.AgentdeskMcp;
import dev.agentdesk.mcp.HistoryAccess;
import dev.agentdesk.mcp.McpOptions;
import dev.agentdesk.mcp.McpPorts;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptHistory;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code agentdesk mcp}: the MCP server on stdio, for an agent CLI to start ({@code claude mcp add
 * agentdesk -- agentdesk mcp}). History tools read the database directly; terminal, agent and
 * sandbox tools go to a running {@code agentdesk serve}. Standard output carries only the protocol.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
    subcommands = dev.agentdesk.app.mcpinstall.McpInstallCommand.class,
    description = {"Serve MCP on stdin/stdout: history search, terminals, agents and sandboxes for an agent.",
        "Add it to Claude Code with: claude mcp add agentdesk -- agentdesk mcp",
        "History tools read the history database; terminal_*, agent_* and sandbox_* tools need a running",
        "'agentdesk serve' (the token is read from its token file). Tools that type, start or exec are",
        "refused unless --allow-control is given. Every call is logged to stderr with the client's name.",
        "'agentdesk mcp install --client AGENT' registers it with claude, codex, gemini, opencode, cursor or copilot."})
public final class McpCommand implements Callable<Integer> {
  @Mixin DbOption db = new DbOption();

  @Option(names = "--server", paramLabel = "URL", description = "The agentdesk server for live tools. Default: http://127.0.0.1:7420/.")
  URI server = ServerClient.DEFAULT_URL;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "The server's token file. Default: $XDG_DATA_HOME/agentdesk/token (~/.local/share/agentdesk/token).")
  Path tokenFile;

  @Option(names = "--allow-control",
      description = "Allow the tools that type into terminals, start terminals and agents, act and exec in sandboxes.")
  boolean allowControl;

  @Override
  public Integer call() throws IOException {
    // Nothing but the protocol may reach stdout: anything else printed by a library goes to stderr.
    PrintStream protocol = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
    System.setOut(System.err);
    DbOption.Target target = db.resolve();
    TranscriptHistory history;
    try {
      if (target.url() != null) {
        history = TranscriptHistory.openUrl(target.url());
      } else {
        history = TranscriptHistory.open(target.file());
      }
    } catch (TranscriptException e) {
      throw new UserError("cannot open the history database: " + e.getMessage(), e);
    }
    RemotePorts remote = new RemotePorts(() -> tokenFile == null ? ServerClient.local(server)
        : ServerClient.withTokenFile(server, tokenFile), server.toString());
    String problem = remote.problem();
    String notice = "";
    if (problem != null) {
      notice = "Not available now: terminal_list, terminal_read, terminal_send, terminal_start, agent_list,"
          + " agent_start, agent_diff and the sandbox_* tools, because no agentdesk serve answers at " + server
          + " (" + problem + "). The history_* tools work. Start 'agentdesk serve' and the live tools work on"
          + " the next call.";
      System.err.println("agentdesk mcp: " + notice);
    }
    CountDownLatch closed = new CountDownLatch(1);
    InputStream in = new FilterInputStream(new java.io.FileInputStream(java.io.FileDescriptor.in)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n < 0) {
          closed.countDown();
        }
        return n;
      }

      @Override
      public int read() throws IOException {
        int c = super.read();
        if (c < 0) {
          closed.countDown();
        }
        return c;
      }
    };
    HistoryAccess access = HistoryAccess.over(history);
    McpPorts ports = new McpPorts(access, remote.terminals(), remote.agents(), remote.sandboxes());
    McpOptions options = new McpOptions(AppVersion.current(), allowControl,
        "start 'agentdesk mcp' with --allow-control to allow it", notice);
    McpSyncServer mcp = AgentdeskMcp.start(new StdioServerTransportProvider(AgentdeskMcp.jsonMapper(), in, protocol),
        ports, options);
    System.err.println("agentdesk mcp: serving MCP on stdio (history " + (target.url() != null ? "database URL"
        : target.file()) + "; control " + (allowControl ? "allowed" : "not allowed") + ")");
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    mcp.closeGracefully();
    access.close();
    return 0;
  }
}
