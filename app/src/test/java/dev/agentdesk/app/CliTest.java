package dev.agentdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.cli.AgentdeskCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class CliTest {
  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    CommandLine cl = AgentdeskCommand.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void helpListsEverySubcommand() {
    Run r = run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("serve", "runtime", "aci", "term", "history");
  }

  @Test
  void versionNamesTheProjectVersion() {
    Run r = run("--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("agentdesk ").doesNotContain("unknown").doesNotContain("${");
  }

  @ParameterizedTest
  @ValueSource(strings = {"serve", "runtime", "aci", "term", "history"})
  void everySubcommandHasHelp(String sub) {
    Run r = run(sub, "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Usage: agentdesk " + sub);
  }

  @Test
  void unknownSubcommandIsAUsageError() {
    Run r = run("frobnicate");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("frobnicate");
  }
}
