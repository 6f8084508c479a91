package dev.agentdesk.bench;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Proves the JMH wiring: UTF-8 decoding of 64 KiB with the JDK, the floor any byte-stream
 * consumer in this project is compared with. Run: {@code ./bench wiring}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class WiringBenchmark {
  private final byte[] input = "agentdesk — hello wörld ☃ 日本\n".repeat(2048).getBytes(StandardCharsets.UTF_8);

  @Benchmark
  public String jdkUtf8Decode() {
    return new String(input, StandardCharsets.UTF_8);
  }
}
