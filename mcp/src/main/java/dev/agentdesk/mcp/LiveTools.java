package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The tools over a running server's live objects: terminals, agent sessions and sandboxes. The
 * ports answer the REST API's JSON; these tools check the arguments, wrap arrays in an object (a
 * structured result is always an object) and pick what an agent needs.
 */
final class LiveTools {
  static final int MAX_LINES = 2000;
  static final int MAX_TEXT = 64 * 1024;
  /** The agent types agent_start takes, {@code command} last (the terminal tools offer the others). */
  private static final List<String> AGENTS = java.util.Arrays.stream(dev.agentdesk.agents.AgentType.values())
      .map(dev.agentdesk.agents.AgentType::cliName).toList();
  private static final List<String> VERBS = List.of("click", "double_click", "right_click", "move", "drag", "scroll",
      "type_text", "key");

  /**
   * The quiet window of the look that follows an action (observe): an application updates its
   * accessibility tree a moment after the keys (zenity's entry showed "agent-was-her" of 14 typed
   * characters in a look taken at once), so the look waits until its events have been quiet this long.
   */
  static final int AFTER_ACT_SETTLE_MS = 300;

  private final TerminalsPort terminals;
  private final AgentsPort agents;
  private final SandboxesPort sandboxes;

  LiveTools(TerminalsPort terminals, AgentsPort agents, SandboxesPort sandboxes) {
    this.terminals = terminals;
    this.agents = agents;
    this.sandboxes = sandboxes;
  }

  List<ToolDef> tools() {
    return List.of(terminalList(), terminalRead(), terminalSend(), terminalStart(), agentList(), agentStart(),
        agentDiff(), sandboxList(), sandboxScreenshot(), sandboxAct(), sandboxObserve(), sandboxExec());
  }

  // ---- shapes ----

  static Map<String, Object> terminalSchema() {
    return Schema.object()
        .req("id", Schema.string(null))
        .req("title", Schema.string(null))
        .req("argv", Schema.array(null, Schema.string(null)))
        .req("agent", Schema.string("The agent whose output is parsed (none for a plain program)"))
        .req("cwd", Schema.string(null))
        .req("cols", Schema.integer(null))
        .req("rows", Schema.integer(null))
        .opt("pid", Schema.integer(null))
        .req("created_at", Schema.string(null))
        .req("exited", Schema.bool(null))
        .opt("exit_code", Schema.integer(null))
        .opt("state", Schema.anyObject("busy/idle, awaiting input, question, choice prompt, intent, suggestions, …"))
        .opt("capture", Schema.anyObject(null))
        .opt("preview", Schema.array("The last lines of the screen", Schema.string(null)))
        .build("A terminal as GET /api/terminals/{id} gives it");
  }

  static Map<String, Object> agentSchema() {
    return Schema.object()
        .req("id", Schema.string(null))
        .req("agent", Schema.string(null))
        .req("repo", Schema.string(null))
        .req("worktree", Schema.string(null))
        .opt("branch", Schema.string(null))
        .opt("terminal_id", Schema.string("Read its screen with terminal_read"))
        .req("lifecycle", Schema.string(null))
        .req("status", Schema.anyObject("phase, awaiting_input, question, choice"))
        .opt("transcript", Schema.anyObject("provider, session_id (read it with history_session), path"))
        .opt("cost_usd", Schema.number(null))
        .req("created_at", Schema.string(null))
        .build("An agent session as GET /api/agents/{id} gives it");
  }

  static Map<String, Object> sandboxSchema() {
    return Schema.object()
        .req("id", Schema.string(null))
        .req("name", Schema.string(null))
        .req("url", Schema.string(null))
        .opt("platform", Schema.string(null))
        .opt("screen", Schema.object().req("width", Schema.integer(null)).req("height", Schema.integer(null)).build())
        .req("connected", Schema.bool(null))
        .opt("added_at", Schema.string(null))
        .build("A sandbox (ACI runtime) as GET /api/sandboxes/{id} gives it");
  }

  private static Map<String, Object> idArg(String what) {
    return Schema.string("The " + what + "'s id, from " + what + "_list", 1, 100);
  }

  private static ObjectNode wrap(String field, JsonNode array) {
    ObjectNode o = Jsons.object();
    o.set(field, array);
    return o;
  }

  // ---- terminals ----

  private ToolDef terminalList() {
    return ToolDef.read("terminal_list", "List terminals",
        "The terminals agentdesk serve supervises, each with its parsed state (busy or idle, awaiting input,"
            + " a question or choice prompt, rate limits, intent).",
        Schema.object().build(),
        Schema.object().req("terminals", Schema.array(null, terminalSchema())).build(),
        args -> ToolDef.Outcome.of(wrap("terminals", terminals.list())));
  }

  private ToolDef terminalRead() {
    Map<String, Object> in = Schema.object()
        .req("id", idArg("terminal"))
        .opt("lines", Schema.integer("How many of the last lines of scrollback and screen (default 60)", 1, MAX_LINES))
        .build();
    Map<String, Object> out = Schema.object()
        .req("id", Schema.string(null))
        .req("title", Schema.string(null))
        .req("exited", Schema.bool(null))
        .opt("exit_code", Schema.integer(null))
        .opt("state", Schema.anyObject("The parsed state, as terminal_list shows it"))
        .req("screen", Schema.string("The last lines as text, structural tokens (intent:, suggest:) removed"))
        .req("cursor", Schema.anyObject("row, col, visible"))
        .req("events", Schema.array("The most recent parsed events, oldest first",
            Schema.object().req("type", Schema.string(null)).build()))
        .build();
    return ToolDef.read("terminal_read", "Read a terminal",
        "A terminal's screen as text (the last N lines of its scrollback and screen), its parsed state and"
            + " its recent parsed events.",
        in, out, args -> {
          String id = args.string("id");
          int lines = args.intOr("lines", 1, MAX_LINES, 60);
          JsonNode t = terminals.get(id);
          JsonNode snap = terminals.snapshot(id);
          List<String> all = Resources.screenLines(snap);
          List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
          ObjectNode r = Jsons.object().put("id", id).put("title", t.path("title").asText())
              .put("exited", t.path("exited").asBoolean());
          r.set("exit_code", t.get("exit_code"));
          r.set("state", t.get("state"));
          r.put("screen", String.join("\n", last));
          r.set("cursor", snap.get("cursor"));
          JsonNode events = snap.get("events");
          r.set("events", events == null ? Jsons.array() : events);
          return ToolDef.Outcome.of(r);
        });
  }

  private ToolDef terminalSend() {
    Map<String, Object> in = Schema.object()
        .req("id", idArg("terminal"))
        .opt("text", Schema.string("Text to type as it is (add \\r to press Enter)", 1, MAX_TEXT))
        .opt("key", Schema.string("One named key instead: enter, tab, escape, up, ctrl+c, …", 1, 40))
        .build();
    Map<String, Object> out = Schema.object()
        .req("id", Schema.string(null))
        .req("sent", Schema.oneOf(null, List.of("text", "key")))
        .req("terminal", terminalSchema())
        .build();
    return ToolDef.control("terminal_send", "Type into a terminal",
        "Types text, or presses one named key, in a terminal. Needs control to be allowed.",
        in, out, args -> {
          String id = args.string("id");
          String text = args.optString("text");
          String key = args.optString("key");
          if ((text == null || text.isEmpty()) == (key == null || key.isBlank())) {
            throw args.bad("give exactly one of text or key");
          }
          if (text != null && !text.isEmpty()) {
            if (text.length() > MAX_TEXT) {
              throw args.bad("text is longer than " + MAX_TEXT + " characters");
            }
            terminals.sendText(id, text);
          } else {
            terminals.sendKey(id, key.trim());
          }
          ObjectNode r = Jsons.object().put("id", id).put("sent", text != null && !text.isEmpty() ? "text" : "key");
          r.set("terminal", terminals.get(id));
          return ToolDef.Outcome.of(r);
        });
  }

  private ToolDef terminalStart() {
    Map<String, Object> in = Schema.object()
        .req("argv", Schema.array("The program and its arguments, e.g. [\"bash\", \"-l\"]", Schema.string(null)))
        .opt("cwd", Schema.string("An existing absolute folder (default: the server's folder)"))
        .opt("agent", Schema.oneOf("Parse its output as this agent's (default: by program name)",
            AGENTS.subList(0, AGENTS.size() - 1)))
        .build();
    return ToolDef.control("terminal_start", "Start a terminal",
        "Starts a program in a new supervised terminal (a real PTY) on the server. Needs control to be allowed.",
        in, terminalSchema(), args -> {
          List<String> argv = args.strings("argv", true);
          String cwd = args.optString("cwd");
          String agent = args.choice("agent", AGENTS.subList(0, AGENTS.size() - 1), null);
          JsonNode t = terminals.start(argv, cwd == null || cwd.isBlank() ? null : cwd, agent);
          return ToolDef.Outcome.of((ObjectNode) t);
        });
  }

  // ---- agents ----

  private ToolDef agentList() {
    return ToolDef.read("agent_list", "List agent sessions",
        "The agent sessions (an agent CLI in its own git worktree, linked to its transcript) with their status.",
        Schema.object().build(),
        Schema.object().req("agents", Schema.array(null, agentSchema())).build(),
        args -> ToolDef.Outcome.of(wrap("agents", agents.list())));
  }

  private ToolDef agentStart() {
    Map<String, Object> in = Schema.object()
        .req("agent", Schema.oneOf("Which agent CLI", AGENTS))
        .req("repo", Schema.string("The git repository, an absolute folder"))
        .opt("worktree", Schema.string("The new worktree's name (default: made up)"))
        .opt("in_place", Schema.bool("Work in the repository itself, not a worktree"))
        .opt("base", Schema.string("Branch or commit to start from (default: HEAD)"))
        .opt("prompt", Schema.string("The first prompt", 1, MAX_TEXT))
        .opt("command", Schema.string("With agent=command: the program to run"))
        .opt("args", Schema.array("Extra arguments for the agent CLI", Schema.string(null)))
        .build();
    return ToolDef.control("agent_start", "Start an agent session",
        "Starts an agent CLI in a new git worktree of a repository, supervised and linked to its transcript."
            + " Needs control to be allowed.",
        in, agentSchema(), args -> {
          ObjectNode body = Jsons.object().put("agent", args.choice("agent", AGENTS, null))
              .put("repo", args.string("repo"));
          body.put("worktree", args.optString("worktree"));
          Boolean inPlace = args.optFlag("in_place");
          if (inPlace != null) {
            body.put("in_place", inPlace);
          }
          body.put("base", args.optString("base")).put("prompt", args.optString("prompt"))
              .put("command", args.optString("command"));
          List<String> extra = args.strings("args", false);
          if (extra != null) {
            ArrayNode a = body.putArray("args");
            extra.forEach(a::add);
          }
          return ToolDef.Outcome.of((ObjectNode) agents.start((ObjectNode) Jsons.withoutNulls(body)));
        });
  }

  private ToolDef agentDiff() {
    Map<String, Object> file = Schema.object()
        .req("path", Schema.string(null))
        .opt("old_path", Schema.string(null))
        .req("status", Schema.string("added, modified, deleted, renamed, …"))
        .req("added", Schema.integer(null))
        .req("removed", Schema.integer(null))
        .req("binary", Schema.bool(null))
        .build();
    Map<String, Object> out = Schema.object()
        .req("base", Schema.string("What the diff is against"))
        .opt("from_commit", Schema.string(null))
        .req("files", Schema.array(null, file))
        .req("patch", Schema.string("The unified diff"))
        .build();
    return ToolDef.read("agent_diff", "An agent's changes",
        "What an agent session changed in its worktree against its base: files and the unified diff.",
        Schema.object().req("id", idArg("agent")).build(), out,
        args -> ToolDef.Outcome.of((ObjectNode) agents.diff(args.string("id"))));
  }

  // ---- sandboxes ----

  private ToolDef sandboxList() {
    return ToolDef.read("sandbox_list", "List sandboxes",
        "The sandbox computers (ACI runtimes) registered with the server.",
        Schema.object().build(),
        Schema.object().req("sandboxes", Schema.array(null, sandboxSchema())).build(),
        args -> ToolDef.Outcome.of(wrap("sandboxes", sandboxes.list())));
  }

  private ToolDef sandboxScreenshot() {
    Map<String, Object> in = Schema.object()
        .req("id", idArg("sandbox"))
        .opt("max_long_edge", Schema.integer("Scale down so the longer side is at most this many pixels", 16, 16384))
        .opt("format", Schema.oneOf("Image format (default png)", List.of("png", "jpeg")))
        .build();
    Map<String, Object> out = Schema.object()
        .req("id", Schema.string(null))
        .req("mime_type", Schema.string(null))
        .req("bytes", Schema.integer("Size of the encoded image"))
        .build();
    return ToolDef.read("sandbox_screenshot", "Screenshot a sandbox",
        "A screenshot of the sandbox's screen, as MCP image content.",
        in, out, args -> {
          String id = args.string("id");
          Integer edge = args.optInt("max_long_edge", 16, 16384);
          String format = args.choice("format", List.of("png", "jpeg"), "png");
          SandboxesPort.Image img = sandboxes.screenshot(id, edge, format);
          byte[] bytes = img.bytes();
          ObjectNode r = Jsons.object().put("id", id).put("mime_type", img.mimeType()).put("bytes", bytes.length);
          return new ToolDef.Outcome(r, List.of(
              new McpSchema.ImageContent(null, Base64.getEncoder().encodeToString(bytes), img.mimeType())));
        });
  }

  private ToolDef sandboxAct() {
    Map<String, Object> action = Schema.object()
        .req("type", Schema.oneOf("The ACI action", VERBS))
        .opt("x", Schema.number("Screen pixel (click, double_click, right_click, move, drag from, scroll at)"))
        .opt("y", Schema.number(null))
        .opt("to_x", Schema.number("drag: where to"))
        .opt("to_y", Schema.number(null))
        .opt("dx", Schema.number("scroll: horizontal amount"))
        .opt("dy", Schema.number("scroll: vertical amount (positive is down)"))
        .opt("text", Schema.string("type_text: what to type", 1, MAX_TEXT))
        .opt("key", Schema.string("key: a combo such as ctrl+s or Return", 1, 60))
        .opt("button", Schema.oneOf("drag: the button (default left)", List.of("left", "middle", "right")))
        .opt("ref", Schema.string("click, double_click, right_click, move: an element ref from sandbox_observe"
            + " (e.g. e12) instead of x and y", 2, 10))
        .build();
    Map<String, Object> in = Schema.object()
        .req("id", idArg("sandbox"))
        .req("action", action)
        .opt("observe", Schema.bool("Also return the accessibility tree after the action"))
        .build();
    Map<String, Object> out = Schema.object()
        .req("ok", Schema.bool(null))
        .req("type", Schema.string(null))
        .opt("observation", observationSchema())
        .build();
    return ToolDef.control("sandbox_act", "Act in a sandbox",
        "Performs one ACI action (click, double_click, right_click, move, drag, scroll, type_text, key) in a"
            + " sandbox, at screen pixels or on an element ref from sandbox_observe; with observe, returns the accessibility tree after it"
            + " (once the application's accessibility events have been quiet for " + AFTER_ACT_SETTLE_MS + " ms). Needs control to be allowed.",
        in, out, args -> {
          String id = args.string("id");
          Args a = new Args("sandbox_act action", args.object("action"), Schema.keys(action));
          String type = a.choice("type", VERBS, null);
          if (type == null) {
            throw a.bad("type is required: one of " + String.join(", ", VERBS));
          }
          ObjectNode body = Jsons.object().put("verb", type.equals("type_text") ? "type" : type);
          for (String n : List.of("x", "y", "to_x", "to_y", "dx", "dy")) {
            Double v = a.optNumber(n);
            if (v != null) {
              body.put(n, v);
            }
          }
          for (String n : List.of("text", "key", "button", "ref")) {
            String v = a.optString(n);
            if (v != null) {
              body.put(n, v);
            }
          }
          boolean observe = args.flag("observe");
          sandboxes.act(id, body);
          ObjectNode r = Jsons.object().put("ok", true).put("type", type);
          if (observe) {
            r.set("observation", sandboxes.observe(id, false, AFTER_ACT_SETTLE_MS));
          }
          return ToolDef.Outcome.of(r);
        });
  }

  private static Map<String, Object> observationSchema() {
    return Schema.object()
        .req("tree_text", Schema.string("The accessibility tree as indented text"))
        .opt("revision", Schema.integer(null))
        .opt("diff_of", Schema.integer("With diff: the revision this is a diff against"))
        .opt("node_count", Schema.integer(null))
        .opt("focus", Schema.string(null))
        .build();
  }

  private ToolDef sandboxObserve() {
    Map<String, Object> in = Schema.object()
        .req("id", idArg("sandbox"))
        .opt("diff", Schema.bool("Only what changed since the last observation"))
        .opt("settle_ms", Schema.integer("Wait until the accessibility events have been quiet this long first (ms)",
            0, 3000))
        .build();
    return ToolDef.read("sandbox_observe", "Observe a sandbox",
        "The sandbox's accessibility tree as text (tree_text), whole or as a diff against the last one;"
            + " settle_ms waits for the application to finish updating it.",
        in, observationSchema(), args -> ToolDef.Outcome.of((ObjectNode) sandboxes.observe(args.string("id"),
            args.flag("diff"), args.optInt("settle_ms", 0, 3000))));
  }

  private ToolDef sandboxExec() {
    Map<String, Object> in = Schema.object()
        .req("id", idArg("sandbox"))
        .req("argv", Schema.array("The program and its arguments", Schema.string(null)))
        .build();
    Map<String, Object> out = Schema.object()
        .opt("exit_code", Schema.integer("Absent when a signal killed it or it timed out"))
        .opt("signal", Schema.integer(null))
        .req("timed_out", Schema.bool(null))
        .req("stdout", Schema.string(null))
        .req("stderr", Schema.string(null))
        .req("stdout_truncated", Schema.bool(null))
        .req("stderr_truncated", Schema.bool(null))
        .req("duration_ms", Schema.number(null))
        .build();
    return ToolDef.control("sandbox_exec", "Run a command in a sandbox",
        "Runs a command in the sandbox, where its runtime offers exec, and returns its exit code and output."
            + " Needs control to be allowed.",
        in, out, args -> ToolDef.Outcome.of((ObjectNode) sandboxes.exec(args.string("id"),
            args.strings("argv", true))));
  }
}
