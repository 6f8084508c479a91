package dev.agentdesk.aci.runtime.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks our XXH3-128 against the reference implementation: {@code xxhsum -H2} (Debian package
 * xxhash) for seed 0 and the python3-xxhash binding for seeded hashes. Lengths cover every code
 * path: empty, 1-3, 4-8, 9-16, 17-128, 129-240, and the long (block/stripe) path with and without
 * partial blocks and stripes.
 */
class Xxh3Test {
  private static final int[] LENGTHS = {0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 31, 32, 33, 48, 63, 64,
      65, 80, 96, 97, 100, 127, 128, 129, 130, 150, 159, 160, 161, 191, 192, 193, 200, 224, 239, 240, 241, 250,
      255, 256, 257, 511, 512, 1000, 1023, 1024, 1025, 1088, 2047, 2048, 2049, 4096, 10_000, 65_537, 1_000_003};

  @Test
  void matchesXxhsumForEveryLengthClass(@TempDir Path dir) throws Exception {
    Random random = new Random(7);
    Map<String, byte[]> files = new LinkedHashMap<>();
    for (int len : LENGTHS) {
      byte[] data = new byte[len];
      random.nextBytes(data);
      files.put("f" + len, data);
      Files.write(dir.resolve("f" + len), data);
    }
    List<String> cmd = new ArrayList<>(List.of("xxhsum", "-H2"));
    files.keySet().forEach(cmd::add);
    Map<String, String> expected = parse(run(dir, cmd));
    assertThat(expected).hasSize(files.size());
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      assertThat(Xxh3.hash128(e.getValue()).hex()).as("length %d", e.getValue().length)
          .isEqualTo(expected.get(e.getKey()));
    }
  }

  @Test
  void seededHashesMatchThePythonBinding(@TempDir Path dir) throws Exception {
    Random random = new Random(11);
    long[] seeds = {1, (1280L << 16) | 800, (1920L << 16) | 1080, 0x9E3779B97F4A7C15L, -1};
    StringBuilder script = new StringBuilder("import xxhash,sys\n");
    List<String> expectedOrder = new ArrayList<>();
    Map<String, Long> seedOf = new LinkedHashMap<>();
    Map<String, byte[]> data = new LinkedHashMap<>();
    for (int len : LENGTHS) {
      if (len > 70_000) {
        continue;
      }
      byte[] bytes = new byte[len];
      random.nextBytes(bytes);
      Files.write(dir.resolve("s" + len), bytes);
      for (long seed : seeds) {
        String key = len + "/" + seed;
        expectedOrder.add(key);
        seedOf.put(key, seed);
        data.put(key, bytes);
        script.append("print(xxhash.xxh3_128(open('s").append(len).append("','rb').read(), seed=")
            .append(Long.toUnsignedString(seed)).append(").hexdigest())\n");
      }
    }
    Files.writeString(dir.resolve("h.py"), script);
    String[] lines = run(dir, List.of("/usr/bin/python3", "h.py")).split("\n");
    assertThat(lines).hasSize(expectedOrder.size());
    for (int i = 0; i < lines.length; i++) {
      String key = expectedOrder.get(i);
      assertThat(Xxh3.hash128(data.get(key), seedOf.get(key)).hex()).as(key).isEqualTo(lines[i].trim());
    }
  }

  @Test
  void offsetRangeHashesOnlyThatRange() {
    byte[] whole = "xxhello worldyy".getBytes(StandardCharsets.US_ASCII);
    byte[] part = "hello world".getBytes(StandardCharsets.US_ASCII);
    assertThat(Xxh3.hash128(whole, 2, part.length, 5)).isEqualTo(Xxh3.hash128(part, 5));
    assertThat(Xxh3.hash128(part, 5)).isNotEqualTo(Xxh3.hash128(part, 6));
  }

  private static Map<String, String> parse(String out) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length == 2) {
        m.put(parts[1], parts[0]);
      }
    }
    return m;
  }

  private static String run(Path dir, List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("%s: %s", cmd.get(0), out).isZero();
    return out;
  }
}
