package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.ImportReport;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.index.Importer;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code history import}: brings the database up to date with the transcript directories. */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Import new and appended transcripts (run it again to pick up what was added).",
        "Without a folder option: every agent's default folders that exist, found as the agents find them"
            + " ($HOME and each tool's variable: CLAUDE_CONFIG_DIR, CODEX_HOME, …)."})
public final class HistoryImportCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand
  HistoryCommand parent;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @CommandLine.Mixin
  HistoryFolderOptions folders = new HistoryFolderOptions();

  @Option(names = "--json", description = "Print the import report as JSON")
  boolean json;

  @Option(names = "--no-progress", description = "Do not report progress (on a terminal a bar; otherwise a line"
      + " every 10 s)")
  boolean noProgress;

  @Override
  public Integer call() throws Exception {
    List<Importer.Root> roots = folders.roots(System.getenv(), true);
    if (roots.isEmpty()) {
      throw new UserError("found no agent's transcript folder; looked in:"
          + HistoryFolderOptions.describeDefaults(System.getenv())
          + "\nname a folder with --claude DIR, --codex DIR, …");
    }
    PrintWriter err = spec.commandLine().getErr();
    ProgressBar bar = noProgress ? null : new ProgressBar(err, ProgressBar.stderrIsTerminal());
    long t0 = System.nanoTime();
    ImportReport report = HistorySupport.withHistory(db, parent,
        h -> h.importFrom(roots, bar == null ? ImportListener.NONE : bar));
    if (bar != null) {
      bar.finish();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode o = m.createObjectNode();
      o.put("files", report.filesSeen());
      o.put("files_changed", report.filesChanged());
      o.put("bytes_read", report.bytesRead());
      o.put("records", report.records());
      o.put("seconds", Math.round(secs * 1000) / 1000.0);
      ArrayNode problems = o.putArray("problems");
      for (LineProblem p : report.problems()) {
        problems.addObject().put("file", p.file()).put("line", p.line()).put("reason", p.reason());
      }
      ObjectNode ignored = o.putObject("ignored");
      report.ignored().forEach(ignored::put);
      out.println(m.writeValueAsString(o));
    } else {
      out.printf("imported %d of %d files: %.1f MB, %d records in %.2f s%n", report.filesChanged(),
          report.filesSeen(), report.bytesRead() / 1e6, report.records(), secs);
      for (LineProblem p : report.problems()) {
        out.println("skipped " + p);
      }
    }
    out.flush();
    return 0;
  }
}
