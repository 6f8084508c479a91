package dev.agentdesk.bench.vt;

import dev.agentdesk.terminal.vt.VtEngine;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * VT engine throughput: one operation feeds a whole 4 MiB corpus ({@link VtCorpus}) to the engine.
 * {@link #feed}: an 80x24 engine with its 10,000-row log, in 64 KiB chunks as a PTY reader delivers
 * them, collecting the changed rows of every chunk as a live session does. {@link #render}: what
 * {@code agentdesk term render --cols 120 --rows 40} does in process, a 120x40 engine without a
 * log fed {@link #RENDER_CHUNK}-byte reads that report nothing. MB/s = ops/s × corpus size. Run:
 * {@code ./bench vt}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VtEngineBenchmark {
  @Param({"plain", "sgr", "cursor"})
  public String corpus;

  /** The read size of {@code term render} (TermRenderCommand.CHUNK_BYTES). */
  static final int RENDER_CHUNK = 256 * 1024;

  private byte[] bytes;
  private VtEngine engine;
  private VtEngine renderer;

  @Setup
  public void setUp() {
    bytes = VtCorpus.generate(corpus);
    engine = new VtEngine(80, 24);
    renderer = new VtEngine(120, 40, 0);
  }

  @Benchmark
  public int feed() {
    int changed = 0;
    for (int off = 0; off < bytes.length; off += 65536) {
      changed += engine.feed(bytes, off, Math.min(65536, bytes.length - off)).size();
    }
    return changed;
  }

  @Benchmark
  public int render() {
    for (int off = 0; off < bytes.length; off += RENDER_CHUNK) {
      renderer.feedWithoutChanges(bytes, off, Math.min(RENDER_CHUNK, bytes.length - off));
    }
    return renderer.cols();
  }
}
