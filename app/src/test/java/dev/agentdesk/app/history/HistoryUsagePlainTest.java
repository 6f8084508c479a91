package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.CliRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code history usage} read without picocli ({@link HistoryUsageCommand#plain}): the same options,
 * the same meaning of every plain command line, and picocli still answering everything else.
 */
class HistoryUsagePlainTest {
  @TempDir
  Path dir;

  private static PrintWriter sink() {
    return new PrintWriter(new StringWriter());
  }

  @Test
  void thePlainOptionsArePicocliOptions() {
    Set<String> picocli = new HashSet<>();
    Set<String> picocliFlags = new HashSet<>();
    for (CommandLine.Model.OptionSpec o : new CommandLine(new HistoryUsageCommand()).getCommandSpec().options()) {
      if (!o.usageHelp() && !o.versionHelp()) {
        (o.arity().max() == 0 ? picocliFlags : picocli).add(o.longestName());
      }
    }
    assertThat(HistoryUsageCommand.PLAIN_VALUED).isEqualTo(picocli);
    assertThat(HistoryUsageCommand.PLAIN_FLAGS).isEqualTo(picocliFlags);
  }

  @Test
  void everyPlainCommandLineMeansWhatItMeansToPicocli() {
    for (String[] args : new String[][] {{}, {"--json"}, {"--by", "block", "--json", "--timezone", "UTC", "--db", "/t/h.db"},
        {"--by=WEEK", "-z", "Europe/Berlin", "--since", "20261001", "--until=2026-10-31", "--order", "desc"},
        {"--breakdown", "--by", "month", "--project", "shop", "--provider", "claude", "--model", "m", "--mode", "display"},
        {"--by", "block", "--token-limit", "max", "--live", "--refresh", "2", "--now", "2026-12-01T22:00:00Z"},
        {"--by", "response", "--session", "abc", "--config-dir", "/t/conf", "--db-url", "jdbc:sqlite:/t/x.db"},
        {"--limits", "--db-url-file", "/t/url", "-z=UTC"}, {"--timezone=-05:00"}}) {
      HistoryUsageCommand plain = HistoryUsageCommand.plain(args, sink(), sink());
      HistoryUsageCommand parsed = new HistoryUsageCommand();
      new CommandLine(parsed).parseArgs(args);
      assertThat(plain).as(String.join(" ", args)).isNotNull();
      assertThat(fields(plain)).as(String.join(" ", args)).isEqualTo(fields(parsed));
    }
  }

  private static List<String> fields(HistoryUsageCommand c) {
    List<String> f = new ArrayList<>();
    for (Object v : new Object[] {c.by, c.breakdown, c.order, c.timezone, c.since, c.until, c.project, c.provider,
        c.session, c.model, c.tokenLimit, c.live, c.refresh, c.now, c.mode, c.limits, c.json, c.configDir, c.db.db,
        c.db.url, c.db.urlFile}) {
      f.add(String.valueOf(v));
    }
    return f;
  }

  @Test
  void anythingElseIsPicocliCommandLine() {
    for (String[] args : new String[][] {{"--help"}, {"-h"}, {"-V"}, {"--by"}, {"--by", "fortnight"}, {"--refresh", "soon"},
        {"--json=true"}, {"--by", "day", "--by", "week"}, {"--db", "--json"}, {"stray"}, {"--bogus"}, {"-zUTC"},
        {"--json", "--json"}, {"--timezone", "-05:00"}}) {
      assertThat(HistoryUsageCommand.plain(args, sink(), sink())).as(String.join(" ", args)).isNull();
    }
    CliRun help = run("history", "usage", "--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).startsWith("Usage: agentdesk history usage").contains("--token-limit=N|max");
    CliRun bad = run("history", "usage", "--by", "fortnight", "--db", dir.resolve("h.db").toString());
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("expected day, week, month, session, model, provider, project, block or response,"
        + " not 'fortnight'");
  }

  @Test
  void aFailureOfAPlainRunReadsAsUnderPicocli() throws IOException {
    Path db = dir.resolve("h.db");
    assertThat(run("history", "import", "--claude", Files.createDirectories(dir.resolve("none")).toString(),
        "--no-progress", "--db", db.toString()).exit()).isZero();
    // one bad input the command itself refuses (a UserError), and one the plain path then reports
    CliRun plain = run("history", "usage", "--since", "20261201", "--until", "20261130", "--db", db.toString());
    CliRun picocli = run("history", "--db", db.toString(), "usage", "--since", "20261201", "--until", "20261130");
    assertThat(plain.exit()).isEqualTo(2).isEqualTo(picocli.exit());
    assertThat(plain.err()).isEqualTo("agentdesk history usage: --until 20261130 is before --since 20261201\n")
        .isEqualTo(picocli.err());
    assertThat(plain.out()).isEmpty();

    CliRun zone = run("history", "usage", "--timezone", "Mars/Olympus", "--db", db.toString());
    assertThat(zone.exit()).isEqualTo(2);
    assertThat(zone.err()).startsWith("agentdesk history usage: ").contains("Mars/Olympus");

    CliRun fine = run("history", "usage", "--by", "block", "--json", "--db", db.toString());
    assertThat(fine.exit()).as(fine.err()).isZero();
    assertThat(fine.out()).contains("\"by\":\"block\"");
  }
}
