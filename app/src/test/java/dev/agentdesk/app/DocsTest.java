package dev.agentdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.cli.AgentdeskCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README is the front door and docs/ holds the manual: every relative link in them leads to a
 * file that exists, every docs page is reachable from the README, the quick start gives exactly the
 * two commands, and the command table names every subcommand the CLI has.
 */
class DocsTest {
  private static final Path ROOT = Path.of(System.getProperty("agentdesk.repo.root", "..")).toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  @Test
  void everyRelativeLinkInTheReadmeAndDocsResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : markdownFiles()) {
      for (String target : links(doc)) {
        if (target.matches("^[a-z]+:.*") || target.startsWith("#")) {
          continue; // external URL or an anchor in the same page
        }
        String file = target.replaceFirst("#.*$", "");
        if (!Files.exists(doc.getParent().resolve(file))) {
          broken.add(ROOT.relativize(doc) + " -> " + target);
        }
      }
    }
    assertThat(broken).as("links to files that do not exist").isEmpty();
  }

  @Test
  void everyDocsPageIsReachableFromTheReadme() throws IOException {
    List<Path> reached = new ArrayList<>();
    List<Path> frontier = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    while (!frontier.isEmpty()) {
      Path doc = frontier.remove(frontier.size() - 1).normalize();
      if (reached.contains(doc) || !Files.isRegularFile(doc)) {
        continue;
      }
      reached.add(doc);
      for (String target : links(doc)) {
        String file = target.replaceFirst("#.*$", "");
        if (file.endsWith(".md")) {
          frontier.add(doc.getParent().resolve(file));
        } else if (file.endsWith("/") && Files.isDirectory(doc.getParent().resolve(file))) {
          try (Stream<Path> pages = Files.list(doc.getParent().resolve(file))) {
            pages.filter(p -> p.toString().endsWith(".md")).forEach(frontier::add);
          }
        }
      }
    }
    List<Path> unreachable = markdownFiles().stream().map(Path::normalize).filter(p -> !reached.contains(p)).toList();
    assertThat(unreachable).as("docs pages no link chain from the README reaches").isEmpty();
  }

  @Test
  void theQuickStartGivesExactlyTheTwoCommands() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher block = Pattern.compile("## Quick start.*?```sh\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(block.find()).as("a sh block under 'Quick start'").isTrue();
    List<String> commands = block.group(1).lines().map(l -> l.replaceFirst("\\s+#.*$", "").trim())
        .filter(l -> !l.isEmpty()).toList();
    assertThat(commands).containsExactly("./agentdesk serve", "./run-tests");
    assertThat(ROOT.resolve("run-tests")).isExecutable();
    // Then the line that puts agentdesk on PATH, in the quick start's next block.
    Matcher install = Pattern.compile("## Quick start.*?```sh\\n.*?```.*?```sh\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(install.find()).as("a second sh block under 'Quick start'").isTrue();
    assertThat(install.group(1)).contains("./agentdesk install");
    assertThat(ROOT.resolve("scripts/install")).isExecutable();
    assertThat(Files.readString(ROOT.resolve(".ci/run"))).contains("./run-tests");
  }

  @Test
  void theCommandTableNamesEverySubcommand() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    CommandLine cli = new CommandLine(new AgentdeskCommand());
    List<String> missing = new ArrayList<>();
    for (var e : cli.getSubcommands().entrySet()) {
      String name = e.getKey();
      if (!name.equals("help") && !e.getValue().getCommandSpec().usageMessage().hidden() && !readme.contains("| `" + name)) {
        missing.add(name);
      }
    }
    assertThat(missing).as("subcommands the README's command table does not name").isEmpty();
  }

  private static List<Path> markdownFiles() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> walk = Files.walk(ROOT.resolve("docs"))) {
      walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  /** Link targets outside code spans and fences. */
  private static List<String> links(Path doc) throws IOException {
    List<String> out = new ArrayList<>();
    boolean fence = false;
    for (String line : Files.readAllLines(doc)) {
      if (line.startsWith("```")) {
        fence = !fence;
        continue;
      }
      if (fence) {
        continue;
      }
      Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }
}
