package dev.agentdesk.app.dist;

import dev.agentdesk.app.AppVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agentdesk dist-files --out DIR} (hidden; scripts/dist runs it): writes the shell
 * completions and man pages of this command line into the usual places under DIR:
 * {@code share/bash-completion/completions/agentdesk} (picocli's AutoComplete),
 * {@code share/zsh/site-functions/_agentdesk}, {@code share/fish/vendor_completions.d/agentdesk.fish}
 * and {@code share/man/man1/*.1}.
 */
@Command(name = "dist-files", hidden = true, mixinStandardHelpOptions = true,
    description = "Write shell completions (bash, zsh, fish) and man pages under DIR/share (used by scripts/dist).")
public final class DistFilesCommand implements Callable<Integer> {
  static final String NAME = "agentdesk";

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where share/ is written.")
  Path out;

  @Override
  public Integer call() throws IOException {
    CommandLine root = spec.root().commandLine();
    List<CommandTree.Node> nodes = CommandTree.walk(root);
    Path share = out.resolve("share");
    write(share.resolve("bash-completion/completions/" + NAME), AutoComplete.bash(NAME, root));
    write(share.resolve("zsh/site-functions/_" + NAME), ZshCompletion.script(NAME, nodes));
    write(share.resolve("fish/vendor_completions.d/" + NAME + ".fish"), FishCompletion.script(NAME, nodes));
    // The build's date, not the clock's, would make pages reproducible; SOURCE_DATE_EPOCH gives it.
    String epoch = System.getenv("SOURCE_DATE_EPOCH");
    LocalDate date = epoch != null && epoch.matches("\\d+")
        ? java.time.Instant.ofEpochSecond(Long.parseLong(epoch)).atZone(ZoneOffset.UTC).toLocalDate()
        : LocalDate.now(ZoneOffset.UTC);
    Map<String, String> pages = ManPages.pages(NAME, AppVersion.current(), nodes, date);
    for (Map.Entry<String, String> p : pages.entrySet()) {
      write(share.resolve("man/man1/" + p.getKey()), p.getValue());
    }
    spec.commandLine().getOut().println("dist-files: completions for bash, zsh and fish and " + pages.size()
        + " man pages under " + share);
    return 0;
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
