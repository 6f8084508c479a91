package dev.agentdesk.app.cli;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.CliRun;
import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TermRenderCommandTest {
  @TempDir
  Path dir;

  private Path write(String name, String content) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, content.getBytes(StandardCharsets.UTF_8));
    return p;
  }

  @Test
  void rendersARawFileAsRightTrimmedRows() throws IOException {
    Path f = write("out.raw", "hello   \r\n\u001b[31mworld\u001b[0m\r\n\u001b[2;3Hx");
    CliRun r = run("term", "render", "--cols", "20", "--rows", "5", f.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("hello\nwoxld" + System.lineSeparator());
  }

  @Test
  void jsonHasLinesCursorWrappedAltScreenAndLog() throws IOException {
    Path f = write("out.raw", "one\r\ntwo\r\nthree \"q\"\r\nabcdefghijkl");
    CliRun r = run("term", "render", "--cols", "10", "--rows", "3", "--json", f.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out().strip()).isEqualTo("{\"lines\": [\"three \\\"q\\\"\", \"abcdefghij\", \"kl\"], "
        + "\"cursor\": {\"row\": 2, \"col\": 2}, \"wrapped\": [false, false, true], \"alt_screen\": false, "
        + "\"log\": [\"one\", \"two\"]}");
  }

  @Test
  void replaysOnlyOutputRecordsOfATcapCapture() throws IOException {
    Path f = dir.resolve("s.tcap");
    try (TcapWriter w = TcapWriter.create(f)) {
      byte[] a = "prompt> ".getBytes(StandardCharsets.UTF_8);
      byte[] typed = "secret".getBytes(StandardCharsets.UTF_8);
      byte[] b = "ls\r\nfile.txt".getBytes(StandardCharsets.UTF_8);
      w.write(Direction.OUTPUT, 0, a, 0, a.length);
      w.write(Direction.INPUT, 10, typed, 0, typed.length);
      w.write(Direction.OUTPUT, 20, b, 0, b.length);
    }
    CliRun r = run("term", "render", f.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("prompt> ls\nfile.txt" + System.lineSeparator());
  }

  @Test
  void alternateScreenIsReported() throws IOException {
    Path f = write("alt.raw", "\u001b[?1049h\u001b[Hfull screen");
    CliRun r = run("term", "render", "--json", f.toString());
    assertThat(r.out()).contains("\"alt_screen\": true", "\"lines\": [\"full screen\"");
  }

  @Test
  void truncatedCaptureIsAUserErrorNamingTheOffset() throws IOException {
    Path f = dir.resolve("t.tcap");
    try (TcapWriter w = TcapWriter.create(f)) {
      byte[] a = "0123456789".getBytes(StandardCharsets.UTF_8);
      w.write(Direction.OUTPUT, 0, a, 0, a.length);
    }
    byte[] all = Files.readAllBytes(f);
    Files.write(f, Arrays.copyOf(all, all.length - 3));
    CliRun r = run("term", "render", f.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("offset 9").contains("t.tcap");
  }

  @Test
  void missingFileAndBadSizeAreUserErrors() {
    CliRun missing = run("term", "render", dir.resolve("nope.raw").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("no such file");
    CliRun badSize = run("term", "render", "--cols", "0", dir.toString());
    assertThat(badSize.exit()).isEqualTo(2);
    assertThat(badSize.err()).contains("--cols");
    CliRun directory = run("term", "render", dir.toString());
    assertThat(directory.exit()).isEqualTo(2);
    assertThat(directory.err()).contains("directory");
  }
}
