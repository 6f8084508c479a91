package dev.agentdesk.bench.parser;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ManualClock;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.parser.ParsingTerminal;
import dev.agentdesk.terminal.vt.VtEngine;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The output path (raw OSC scan → VT engine → chrome cutoff → parser) over a realistic mixed agent
 * stream ({@link MixedAgentStream}, 1 MiB). {@code chunk4KiB} samples the latency of one 4 KiB
 * read (p50/p99 from JMH's sample mode); {@code chunk4KiBVtOnly} is the same read through the VT
 * engine alone, so the parser's share is visible; {@code wholeStream} gives throughput.
 * Run: {@code ./bench parser}.
 */
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ParserBenchmark {
  static final int STREAM_BYTES = 1 << 20;
  static final int CHUNK = 4096;

  private byte[] stream;
  private ParsingTerminal terminal;
  private VtEngine vtOnly;
  private ManualClock clock;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    stream = MixedAgentStream.build(STREAM_BYTES, 42);
    clock = new ManualClock(0);
    terminal = new ParsingTerminal(Agent.CLAUDE, 128, 41, clock);
    vtOnly = new VtEngine(128, 41);
    pos = 0;
  }

  private int nextChunk() {
    if (pos + CHUNK > stream.length) {
      pos = 0;
    }
    int at = pos;
    pos += CHUNK;
    return at;
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void chunk4KiB(Blackhole bh) {
    int at = nextChunk();
    clock.advanceBy(5);
    bh.consume(terminal.output(stream, at, CHUNK));
    bh.consume(terminal.tick());
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void chunk4KiBVtOnly(Blackhole bh) {
    int at = nextChunk();
    bh.consume(vtOnly.feed(stream, at, CHUNK));
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public int wholeStream() {
    ManualClock c = new ManualClock(0);
    ParsingTerminal t = new ParsingTerminal(Agent.CLAUDE, 128, 41, c);
    int events = 0;
    for (int off = 0; off < stream.length; off += CHUNK) {
      c.advanceBy(5);
      List<ParsedEvent> e = t.output(stream, off, Math.min(CHUNK, stream.length - off));
      events += e.size() + t.tick().size();
    }
    return events;
  }
}
