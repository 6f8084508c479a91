package dev.agentdesk.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.opentest4j.TestAbortedException;

/**
 * Locates {@code ../shared} (the specs and the real-format corpus that sit beside the repository).
 * It is read in place, never copied into the repository.
 *
 * <p>The repository root comes from the {@code agentdesk.repo.root} system property that Surefire
 * sets, else the nearest parent directory of the working directory that holds {@code run-tests}.
 */
public final class SharedCorpus {
  private SharedCorpus() {}

  /**
   * {@code ../shared} if it exists. A checkout in a nested folder (a git worktree such as
   * {@code work/wt/x}) finds the {@code shared} folder beside the nearest ancestor that has one.
   */
  public static Optional<Path> find() {
    Optional<Path> root = repoRoot();
    if (root.isEmpty()) {
      return Optional.empty();
    }
    for (Path dir = root.get().getParent(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared");
      if (Files.isDirectory(candidate.resolve("spec")) || Files.isDirectory(candidate.resolve("corpus"))) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * The path {@code ../shared/<relative>}. When it is absent the calling test is aborted with a
   * message that names the path looked for — corpus tests say clearly that they did not run.
   */
  public static Path require(String relative) {
    Path root = find().orElseThrow(() -> new TestAbortedException(
        "../shared is absent (looked beside " + repoRoot().map(Path::toString).orElse("<unknown repo root>")
            + "): corpus test not run"));
    Path p = root.resolve(relative);
    if (!Files.exists(p)) {
      throw new TestAbortedException(p + " is absent: corpus test not run");
    }
    return p;
  }

  /** The repository root. */
  public static Optional<Path> repoRoot() {
    String prop = System.getProperty("agentdesk.repo.root");
    if (prop != null && Files.isDirectory(Path.of(prop))) {
      return Optional.of(Path.of(prop).toAbsolutePath().normalize());
    }
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve("run-tests"))) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
