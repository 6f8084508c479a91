package dev.agentdesk.app.history;

import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.DetailMarkdown;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code history parse FILE}: the fresh-parse path, no database; same JSON as {@code show} after import. */
@Command(name = "parse", mixinStandardHelpOptions = true,
    description = "Parse one transcript file directly (no database); prints what 'show' prints after import.")
public final class HistoryParseCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Parameters(paramLabel = "FILE", description = {"A transcript: a Claude Code, Codex, Copilot, Cursor or pi .jsonl,"
      + " an Aider .aider.chat.history.md (FILE#SESSION_ID when it holds several sessions),"
      + " a Gemini CLI .json/.jsonl, an OpenCode storage/session/…/ID.json, or OPENCODE.db#SESSION_ID"})
  Path file;

  @Option(names = "--provider", paramLabel = "P", completionCandidates = dev.agentdesk.app.cli.Names.Providers.class,
      description = "${COMPLETION-CANDIDATES} (default: detected from the file)")
  String provider;

  @Option(names = "--json", description = "The session detail JSON")
  boolean json;

  @Option(names = "--markdown", description = "Markdown (the default)")
  boolean markdown;

  @Override
  public Integer call() {
    String name = file.toString();
    boolean inDatabase = name.lastIndexOf('#') > 0 && Files.isRegularFile(Path.of(name.substring(0, name.lastIndexOf('#'))));
    if (!Files.isRegularFile(file) && !inDatabase) {
      throw new UserError(file + " is not a file");
    }
    if (json && markdown) {
      throw new UserError("choose one of --json and --markdown");
    }
    try {
      Provider p = provider != null ? Provider.parse(provider) : Transcripts.detectProvider(file);
      Transcripts.FreshParse parsed = Transcripts.parse(p, file);
      SessionDetail detail = parsed.detail();
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? DetailJson.write(detail) : DetailMarkdown.write(detail));
      out.flush();
      PrintWriter err = spec.commandLine().getErr();
      for (LineProblem problem : parsed.problems()) {
        err.println("skipped " + problem);
      }
      err.flush();
      return 0;
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    } catch (TranscriptException e) {
      throw HistorySupport.translate(e);
    }
  }
}
