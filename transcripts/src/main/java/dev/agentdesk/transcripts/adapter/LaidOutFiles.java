package dev.agentdesk.transcripts.adapter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Discovery for providers that keep their transcripts under a folder of a known name
 * ({@code chats/}, {@code agent-transcripts/}) somewhere below their root.
 */
final class LaidOutFiles {
  private LaidOutFiles() {}

  /**
   * The units of the files under a folder named {@code folder} below {@code root}; when none is laid
   * out so (a copied or collected folder), every file below {@code root}; {@code root} itself when it
   * is a file.
   */
  static List<SourceUnit> discover(Path root, String folder, Function<Path, Optional<SourceUnit>> unitFor)
      throws IOException {
    if (Files.isRegularFile(root)) {
      return unitFor.apply(root).map(List::of).orElse(List.of());
    }
    List<SourceUnit> units = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      List<Path> all = s.filter(Files::isRegularFile).sorted().toList();
      List<Path> laidOut = all.stream().filter(f -> under(f, folder)).toList();
      for (Path f : laidOut.isEmpty() ? all : laidOut) {
        unitFor.apply(f).ifPresent(units::add);
      }
    }
    return units;
  }

  private static boolean under(Path f, String folder) {
    for (Path p = f.getParent(); p != null && p.getFileName() != null; p = p.getParent()) {
      if (p.getFileName().toString().equals(folder)) {
        return true;
      }
    }
    return false;
  }
}
