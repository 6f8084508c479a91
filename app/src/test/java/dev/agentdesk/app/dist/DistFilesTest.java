package dev.agentdesk.app.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completions and man pages of {@code agentdesk dist-files}, run by the real shells and groff:
 * bash and fish complete subcommands and options at each depth, zsh parses its function, and every
 * man page formats without a groff warning. The shells come from scripts/setup-system.
 */
class DistFilesTest {
  @TempDir static Path out;
  static Path share;

  @BeforeAll
  static void generate() {
    CliRun r = CliRun.run("dist-files", "--out", out.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    share = out.resolve("share");
  }

  @Test
  void bashCompletesCommandsAndOptionsAtEachDepth() throws Exception {
    Path script = share.resolve("bash-completion/completions/agentdesk");
    assertThat(bash(script, "agentdesk hist")).containsExactly("history");
    assertThat(bash(script, "agentdesk history s")).contains("sessions", "search", "show");
    assertThat(bash(script, "agentdesk doctor --j")).containsExactly("--json");
    assertThat(bash(script, "agentdesk mcp install --cl")).containsExactly("--client");
    assertThat(bash(script, "agentdesk dist")).as("the hidden command is not offered").isEmpty();
  }

  private static List<String> bash(Path script, String line) throws Exception {
    String words = line + (line.endsWith(" ") ? "''" : "");
    String cmd = "source " + script + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(" + words
        + "); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _complete_agentdesk agentdesk \"${COMP_WORDS[-1]}\" "
        + "\"${COMP_WORDS[-2]}\" 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
    return run(List.of("bash", "-c", cmd)).lines().filter(l -> !l.isBlank()).map(String::strip).toList();
  }

  @Test
  void fishCompletesCommandsWithDescriptionsAndOptionsOfTheRightCommand() throws Exception {
    Path script = share.resolve("fish/vendor_completions.d/agentdesk.fish");
    String top = fish(script, "agentdesk ");
    assertThat(top).contains("history\t").contains("doctor\t").contains("serve\t").doesNotContain("dist-files");
    String history = fish(script, "agentdesk history ");
    assertThat(history).contains("sessions\tList imported sessions, most recent first").doesNotContain("doctor\t");
    assertThat(fish(script, "agentdesk history sessions --")).contains("--provider").contains("--json")
        .doesNotContain("--allow-control");
    assertThat(fish(script, "agentdesk mcp install --")).contains("--client").contains("--remove");
  }

  private static String fish(Path script, String line) throws Exception {
    return run(List.of("fish", "--no-config", "-c", "source " + script + "; complete -C '" + line + "'"));
  }

  @Test
  void zshParsesItsCompletionFunction() throws Exception {
    Path script = share.resolve("zsh/site-functions/_agentdesk");
    assertThat(Files.readString(script)).startsWith("#compdef agentdesk\n");
    assertThat(run(List.of("zsh", "-n", script.toString()))).isEmpty();
    // Defining the function and calling its path walk over typed words, without the completion system.
    String probe = "autoload -U compinit; compinit -u -D 2>/dev/null; source " + script
        + "; whence -w _agentdesk";
    assertThat(run(List.of("zsh", "-f", "-c", probe))).contains("_agentdesk: function");
  }

  @Test
  void everyManPageFormatsWithoutAWarning() throws Exception {
    List<Path> pages;
    try (var s = Files.list(share.resolve("man/man1"))) {
      pages = s.sorted().toList();
    }
    assertThat(pages).extracting(p -> p.getFileName().toString())
        .contains("agentdesk.1", "agentdesk-history-sessions.1", "agentdesk-mcp-install.1", "agentdesk-doctor.1")
        .doesNotContain("agentdesk-dist-files.1", "agentdesk-help.1");
    for (Path page : pages) {
      String warnings = run(List.of("groff", "-man", "-Tutf8", "-ww", "-z", page.toString()));
      assertThat(warnings).as(page.getFileName() + " formats cleanly").isEmpty();
    }
    String doctor = run(List.of("groff", "-man", "-Tutf8", "-P-cbou", share.resolve("man/man1/agentdesk-doctor.1").toString()));
    assertThat(doctor).contains("Check this machine for agentdesk\n").contains("--json")
        .contains("SEE ALSO");
  }

  private static String run(List<String> argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(argv.get(0) + " finishes").isTrue();
    return new String(out, StandardCharsets.UTF_8);
  }
}
