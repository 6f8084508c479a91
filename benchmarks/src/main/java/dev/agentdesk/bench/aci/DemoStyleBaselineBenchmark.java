package dev.agentdesk.bench.aci;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The same act + observe step done the way common computer-use demos do it, on the same kind of
 * desktop: an {@code xdotool} subprocess for the click, then {@code scrot} (or ImageMagick's
 * {@code import}) writing a PNG that is read back and base64-encoded for the model.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 4)
public class DemoStyleBaselineBenchmark {
  private BenchDesktop desktop;
  private Path shot;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    desktop = new BenchDesktop(1280, 800);
    shot = Files.createTempFile("bench-scrot", ".png");
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Files.deleteIfExists(shot);
    desktop.close();
  }

  private void run(List<String> cmd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("DISPLAY", desktop.display());
    pb.redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    int exit = pb.start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException(cmd + " exited " + exit);
    }
  }

  @Benchmark
  public String xdotoolClickThenScrot() throws IOException, InterruptedException {
    run(List.of("xdotool", "mousemove", "1270", "790", "click", "1"));
    run(List.of("scrot", "-o", shot.toString()));
    return Base64.getEncoder().encodeToString(Files.readAllBytes(shot));
  }

  @Benchmark
  public String xdotoolClickThenImport() throws IOException, InterruptedException {
    run(List.of("xdotool", "mousemove", "1270", "790", "click", "1"));
    run(List.of("import", "-window", "root", shot.toString()));
    return Base64.getEncoder().encodeToString(Files.readAllBytes(shot));
  }
}
