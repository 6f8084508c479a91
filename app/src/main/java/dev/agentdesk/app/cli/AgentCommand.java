package dev.agentdesk.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.serve.ServerClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code agentdesk agent}: agent sessions of a running {@code agentdesk serve}, through its REST
 * API with the token from this user's token file. Every subcommand prints a short human form, or
 * the API's JSON with {@code --json}.
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
    description = "Start and manage agent sessions (an agent CLI in its own git worktree, its terminal, transcript and"
        + " diff) on a running 'agentdesk serve'.",
    subcommands = {AgentCommand.Start.class, AgentCommand.ListAgents.class, AgentCommand.Show.class,
        AgentCommand.Diff.class, AgentCommand.Send.class, AgentCommand.Merge.class, AgentCommand.Discard.class,
        AgentCommand.Resume.class, AgentCommand.Stop.class})
public final class AgentCommand implements Runnable {
  private static final ObjectMapper JSON = new ObjectMapper();

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Options every subcommand takes. */
  static class ServerOptions {
    @Option(names = "--server", paramLabel = "URL", description = "The agentdesk server. Default: http://127.0.0.1:7420/.")
    URI server = ServerClient.DEFAULT_URL;

    @Option(names = "--token-file", paramLabel = "FILE",
        description = "The server's token file. Default: $XDG_DATA_HOME/agentdesk/token.")
    Path tokenFile;

    @Option(names = "--json", description = "Print the API's JSON.")
    boolean json;

    ServerClient client() {
      try {
        return tokenFile == null ? ServerClient.local(server) : ServerClient.withTokenFile(server, tokenFile);
      } catch (RuntimeException e) {
        throw new UserError(e.getMessage() + " (is 'agentdesk serve' running as this user?)", e);
      }
    }
  }

  /** Base of the subcommands: one call, its errors as one line. */
  abstract static class Sub implements Callable<Integer> {
    @CommandLine.Mixin
    ServerOptions opts = new ServerOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    abstract JsonNode call(ServerClient c) throws IOException;

    abstract void print(PrintWriter out, JsonNode result);

    @Override
    public Integer call() throws IOException {
      ServerClient c = opts.client();
      JsonNode result;
      try {
        result = call(c);
      } catch (ServerClient.ServerClientException e) {
        throw new UserError(e.getMessage(), e);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (opts.json) {
        out.println(result == null ? "{}" : JSON.writeValueAsString(result));
      } else {
        print(out, result);
      }
      out.flush();
      return 0;
    }

    /** The body of a 2xx answer as JSON (null for 204); any other status is the server's error message. */
    static JsonNode answer(ServerClient.Response r) throws IOException {
      if (!r.ok()) {
        String message = r.body();
        try {
          JsonNode err = JSON.readTree(r.body());
          message = err.path("message").asText(r.body());
          if (err.has("paths")) {
            message += " " + err.get("paths");
          }
        } catch (IOException notJson) {
          // the raw body is the message
        }
        throw new UserError(message);
      }
      return r.body().isEmpty() ? null : JSON.readTree(r.body());
    }

    static String path(String id, String rest) {
      return "/api/agents/" + URLEncoder.encode(id, StandardCharsets.UTF_8) + rest;
    }
  }

  /** A subcommand about one agent session, named by its id. */
  abstract static class ById extends Sub {
    @Parameters(paramLabel = "ID", description = "The agent session's id (agentdesk agent list).")
    String id;
  }

  static void printAgent(PrintWriter out, JsonNode a) {
    JsonNode st = a.path("status");
    out.printf("%s  %s  %s%n", a.path("id").asText(), a.path("agent").asText(), st.path("phase").asText());
    out.printf("  repo      %s%n  worktree  %s%n  branch    %s (from %s)%n", a.path("repo").asText(),
        a.path("worktree").asText(), a.path("branch").asText(), a.path("base").asText());
    JsonNode t = a.path("transcript");
    out.printf("  transcript %s%n", t.isNull() || t.isMissingNode() ? a.path("transcript_status").asText()
        : t.path("provider").asText() + " " + t.path("session_id").asText());
    if (!st.path("question").isNull() && st.has("question")) {
      out.printf("  asks      %s%n", st.path("question").asText());
    }
    for (JsonNode o : st.path("choice").path("options")) {
      out.printf("            %d. %s%n", o.path("index").asInt(), o.path("label").asText());
    }
    JsonNode tok = a.path("tokens");
    if (!tok.isNull() && !tok.isMissingNode()) {
      out.printf("  tokens    in %d · out %d · cache read %d%n", tok.path("input").asLong(), tok.path("output").asLong(),
          tok.path("cache_read").asLong());
    }
    out.printf("  terminal  %s%n", a.path("terminal_id").asText("-"));
  }

  @Command(name = "start", mixinStandardHelpOptions = true,
      description = "Start an agent in a new git worktree (branch agentdesk/NAME) or in the repository itself.")
  static final class Start extends Sub {
    @Option(names = "--agent", required = true, paramLabel = "NAME", completionCandidates = Names.AgentTypes.class,
        description = "${COMPLETION-CANDIDATES} (command: with --command).")
    String agent;

    @Option(names = "--repo", required = true, paramLabel = "DIR", description = "A folder in the git repository.")
    Path repo;

    @Option(names = "--worktree", paramLabel = "NAME", description = "Worktree and branch name. Default: generated.")
    String worktree;

    @Option(names = "--in-place", description = "Run in the repository's own checkout (no worktree).")
    boolean inPlace;

    @Option(names = "--base", paramLabel = "REF", description = "Start the worktree from REF. Default: the repository's HEAD.")
    String base;

    @Option(names = "--prompt", paramLabel = "TEXT", description = "The first prompt.")
    String prompt;

    @Option(names = "--command", paramLabel = "PATH", description = "Run this executable instead of the agent's CLI on PATH.")
    String command;

    @Option(names = "--auto-resume",
        description = "Type 'continue' by itself once a rate or usage limit resets (once per limit; never after you typed).")
    boolean autoResume;

    @Parameters(paramLabel = "ARG", description = "Extra arguments for the agent CLI (after --).")
    List<String> args = List.of();

    @Override
    JsonNode call(ServerClient c) throws IOException {
      if (inPlace && worktree != null) {
        throw new UserError("give --worktree or --in-place, not both");
      }
      ObjectNode body = JSON.createObjectNode().put("agent", agent).put("repo", repo.toAbsolutePath().normalize().toString());
      if (worktree != null) {
        body.put("worktree", worktree);
      }
      if (inPlace) {
        body.put("in_place", true);
      }
      if (base != null) {
        body.put("base", base);
      }
      if (prompt != null) {
        body.put("prompt", prompt);
      }
      if (command != null) {
        body.put("command", command);
      }
      if (!args.isEmpty()) {
        body.set("args", JSON.valueToTree(args));
      }
      if (autoResume) {
        body.put("auto_resume", true);
      }
      return answer(c.post("/api/agents", JSON.writeValueAsString(body)));
    }

    @Override
    void print(PrintWriter out, JsonNode a) {
      out.println("started " + a.path("agent").asText() + " as " + a.path("id").asText() + " on branch "
          + a.path("branch").asText() + " in " + a.path("worktree").asText());
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Agent sessions, those awaiting input first.")
  static final class ListAgents extends Sub {
    @Override
    JsonNode call(ServerClient c) throws IOException {
      return answer(c.get("/api/agents"));
    }

    @Override
    void print(PrintWriter out, JsonNode list) {
      if (list.isEmpty()) {
        out.println("no agent sessions; start one with 'agentdesk agent start --agent claude --repo DIR'");
      }
      for (JsonNode a : list) {
        out.printf("%-10s %-8s %-15s %-28s %s%n", a.path("id").asText(), a.path("agent").asText(),
            a.path("status").path("phase").asText(), a.path("branch").asText(), a.path("last_activity_at").asText(""));
      }
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "One agent session.")
  static final class Show extends ById {
    @Override
    JsonNode call(ServerClient c) throws IOException {
      return answer(c.get(path(id, "")));
    }

    @Override
    void print(PrintWriter out, JsonNode a) {
      printAgent(out, a);
    }
  }

  @Command(name = "diff", mixinStandardHelpOptions = true, description = "The worktree's changes against its base.")
  static final class Diff extends ById {
    @Override
    JsonNode call(ServerClient c) throws IOException {
      return answer(c.get(path(id, "/diff")));
    }

    @Override
    void print(PrintWriter out, JsonNode d) {
      for (JsonNode f : d.path("files")) {
        out.printf("%-9s +%-5d -%-5d %s%n", f.path("status").asText(), f.path("added").asInt(), f.path("removed").asInt(),
            f.path("path").asText());
      }
      out.print(d.path("patch").asText());
    }
  }

  @Command(name = "send", mixinStandardHelpOptions = true,
      description = "Send a prompt (typed, then Enter), or with --key a key, or with --answer N a menu choice.")
  static final class Send extends Sub {
    @Parameters(paramLabel = "ID", index = "0")
    String id;

    @Parameters(paramLabel = "TEXT", index = "1", arity = "0..1")
    String text;

    @Option(names = "--key", paramLabel = "KEY", description = "A key name: enter, esc, ctrl-c, up, down, tab, …")
    String key;

    @Option(names = "--answer", paramLabel = "N", description = "The option number of the choice menu on screen.")
    Integer answer;

    @Override
    JsonNode call(ServerClient c) throws IOException {
      int given = (text == null ? 0 : 1) + (key == null ? 0 : 1) + (answer == null ? 0 : 1);
      if (given != 1) {
        throw new UserError("give exactly one of TEXT, --key or --answer");
      }
      ObjectNode body = JSON.createObjectNode();
      if (text != null) {
        body.put("text", text);
      } else if (key != null) {
        body.put("key", key);
      } else {
        body.put("answer", answer);
      }
      return answer(c.post(path(id, "/input"), JSON.writeValueAsString(body)));
    }

    @Override
    void print(PrintWriter out, JsonNode ignored) {
      out.println("sent");
    }
  }

  @Command(name = "merge", mixinStandardHelpOptions = true,
      description = "Merge the agent's branch into its base (fast-forward when possible, else a merge commit).")
  static final class Merge extends ById {
    @Override
    JsonNode call(ServerClient c) throws IOException {
      return answer(c.post(path(id, "/merge"), ""));
    }

    @Override
    void print(PrintWriter out, JsonNode m) {
      out.println("merged into " + m.path("base_branch").asText() + " (" + m.path("kind").asText().replace('_', '-')
          + ", " + m.path("commit").asText() + ")");
    }
  }

  @Command(name = "discard", mixinStandardHelpOptions = true,
      description = "Stop the agent and remove its worktree and branch (asks first unless --yes).")
  static final class Discard extends ById {
    @Option(names = {"-y", "--yes"}, description = "Do not ask.")
    boolean yes;

    @Override
    JsonNode call(ServerClient c) throws IOException {
      if (!yes) {
        java.io.Console console = System.console();
        if (console == null) {
          throw new UserError("discard removes the worktree and its branch; confirm with --yes");
        }
        String reply = console.readLine("remove the worktree and branch of %s? [y/N] ", id);
        if (reply == null || !reply.trim().equalsIgnoreCase("y")) {
          throw new UserError("not discarded");
        }
      }
      return answer(c.delete(path(id, "?discard=true")));
    }

    @Override
    void print(PrintWriter out, JsonNode ignored) {
      out.println("discarded " + id);
    }
  }

  @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume an ended session in its worktree.")
  static final class Resume extends ById {
    @Override
    JsonNode call(ServerClient c) throws IOException {
      return answer(c.post(path(id, "/resume"), ""));
    }

    @Override
    void print(PrintWriter out, JsonNode a) {
      out.println("resumed " + a.path("id").asText() + ": " + String.join(" ",
          JSON.convertValue(a.path("argv"), String[].class)));
    }
  }

  @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the agent's process (resumable).")
  static final class Stop extends ById {
    @Override
    JsonNode call(ServerClient c) throws IOException {
      return answer(c.post(path(id, "/stop"), ""));
    }

    @Override
    void print(PrintWriter out, JsonNode a) {
      out.println("stopped " + a.path("id").asText());
    }
  }
}
