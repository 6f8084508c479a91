package dev.agentdesk.reliability;

import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Seed inputs for mutation: the project's own recorded fixtures plus the shared corpus when present. */
final class Seeds {
  private Seeds() {}

  static Path repoRoot() {
    return SharedCorpus.repoRoot().orElseThrow(() -> new IllegalStateException("repository root not found"));
  }

  /** Every regular file under the given directories (relative to the repo root and to ../shared) that matches. */
  static List<Path> files(List<String> repoDirs, List<String> sharedDirs, Predicate<Path> accept) {
    List<Path> out = new ArrayList<>();
    for (String dir : repoDirs) {
      collect(repoRoot().resolve(dir), accept, out);
    }
    SharedCorpus.find().ifPresent(shared -> sharedDirs.forEach(dir -> collect(shared.resolve(dir), accept, out)));
    out.sort(null);
    return out;
  }

  static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void collect(Path dir, Predicate<Path> accept, List<Path> out) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(Files::isRegularFile).filter(accept).forEach(out::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
