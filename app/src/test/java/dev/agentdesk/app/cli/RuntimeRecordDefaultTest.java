package dev.agentdesk.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code runtime --record} without a folder records into a new, time-named folder of the recordings folder. */
class RuntimeRecordDefaultTest {
  @Test
  void withoutADirTheRecordingGoesIntoATimeNamedFolderOfTheRecordingsFolder(@TempDir Path dir) throws Exception {
    Instant at = Instant.parse("2026-12-01T16:48:03.250Z");
    Path first = RuntimeCommand.defaultRecording(dir, at);
    assertThat(first).isEqualTo(dir.resolve("2026-12-01T16-48-03Z"));
    assertThat(dev.agentdesk.app.serve.recordings.RecordingsArea.isValidId(first.getFileName().toString())).isTrue();
    Files.createDirectories(first);
    assertThat(RuntimeCommand.defaultRecording(dir, at)).isEqualTo(dir.resolve("2026-12-01T16-48-03Z-2"));

    RuntimeCommand bare = new RuntimeCommand();
    new CommandLine(bare).parseArgs("--token-file", "t", "--record", "--xvfb", "320x200");
    assertThat(bare.record).isEqualTo(Path.of(""));
    RuntimeCommand named = new RuntimeCommand();
    new CommandLine(named).parseArgs("--token-file", "t", "--record", "runs/x", "--xvfb", "320x200");
    assertThat(named.record).isEqualTo(Path.of("runs/x"));
    RuntimeCommand none = new RuntimeCommand();
    new CommandLine(none).parseArgs("--token-file", "t", "--xvfb", "320x200");
    assertThat(none.record).isNull();
  }
}
