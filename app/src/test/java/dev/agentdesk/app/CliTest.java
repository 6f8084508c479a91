package dev.agentdesk.app;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CliTest {
  @Test
  void helpListsEverySubcommand() {
    CliRun r = run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("serve", "runtime", "aci", "term", "history");
  }

  @Test
  void versionNamesTheProjectVersion() {
    CliRun r = run("--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("agentdesk ").doesNotContain("unknown").doesNotContain("${");
  }

  @ParameterizedTest
  @ValueSource(strings = {"serve", "runtime", "aci", "term", "history"})
  void everySubcommandHasHelp(String sub) {
    CliRun r = run(sub, "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Usage: agentdesk " + sub);
  }

  @Test
  void unknownSubcommandIsAUsageError() {
    CliRun r = run("frobnicate");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("frobnicate");
  }
}
