package dev.agentdesk.reliability;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Byte-level mutations of a seed: the kinds the reliability issue names — bit flips, truncations,
 * splices of random bytes, repeated escape prefixes and huge numeric parameters — chosen by a
 * seeded random so every failure is reproducible from its seed.
 */
final class Mutator {
  private static final byte[][] ESCAPE_PREFIXES = {
      {0x1b, '['}, {0x1b, ']'}, {0x1b, 'P'}, {0x1b, '_'}, {0x1b, '^'}, {0x1b, 'X'}, {0x1b, '(' },
      {0x1b, '[', '?'}, {(byte) 0x9b}, {(byte) 0x9d}, {0x1b, ']', '7', '7', '7', ';'}, {0x1b, ']', '9', ';', '4', ';'}};
  private static final byte[][] HUGE_PARAMS = {
      "\u001b[99999999C".getBytes(), "\u001b[99999999;99999999H".getBytes(), "\u001b[99999999L".getBytes(),
      "\u001b[99999999@".getBytes(), "\u001b[99999999M".getBytes(), "\u001b[38;5;99999999m".getBytes(),
      "\u001b[38;2;999999999;1;1m".getBytes(), "\u001b[1;99999999r".getBytes(), "\u001b[99999999X".getBytes(),
      "\u001b[99999999b".getBytes(), "\u001b[?99999999h".getBytes(),
      ("\u001b[" + "1;".repeat(5000) + "m").getBytes()};

  private final SplittableRandom random;

  Mutator(long seed) {
    this.random = new SplittableRandom(seed);
  }

  SplittableRandom random() {
    return random;
  }

  byte[] randomBytes(int maxLen) {
    byte[] b = new byte[random.nextInt(maxLen + 1)];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) random.nextInt(256);
    }
    return b;
  }

  /** One mutation of {@code seed} (never modifies it). */
  byte[] mutate(byte[] seed) {
    byte[] b = seed.length == 0 ? randomBytes(16) : seed;
    return switch (random.nextInt(6)) {
      case 0 -> flipBits(b);
      case 1 -> Arrays.copyOf(b, random.nextInt(b.length + 1));
      case 2 -> Arrays.copyOfRange(b, random.nextInt(b.length + 1), b.length);
      case 3 -> insert(b, randomBytes(32));
      case 4 -> insert(b, repeat(ESCAPE_PREFIXES[random.nextInt(ESCAPE_PREFIXES.length)], 1 + random.nextInt(64)));
      default -> insert(b, HUGE_PARAMS[random.nextInt(HUGE_PARAMS.length)]);
    };
  }

  private byte[] flipBits(byte[] b) {
    byte[] out = b.clone();
    int flips = 1 + random.nextInt(Math.max(1, out.length / 64 + 1));
    for (int i = 0; i < flips; i++) {
      int at = random.nextInt(out.length);
      out[at] ^= (byte) (1 << random.nextInt(8));
    }
    return out;
  }

  private byte[] insert(byte[] b, byte[] piece) {
    int at = random.nextInt(b.length + 1);
    byte[] out = new byte[b.length + piece.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(piece, 0, out, at, piece.length);
    System.arraycopy(b, at, out, at + piece.length, b.length - at);
    return out;
  }

  private static byte[] repeat(byte[] piece, int times) {
    byte[] out = new byte[piece.length * times];
    for (int i = 0; i < times; i++) {
      System.arraycopy(piece, 0, out, i * piece.length, piece.length);
    }
    return out;
  }
}
