package dev.agentdesk.aci.runtime.image;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * XXH3-128 (xxHash 0.8 family), written from the public algorithm description. Used for the
 * codec-independent {@code frame_hash}; its output format is the canonical one ({@code xxhsum -H2}:
 * the high 64 bits then the low 64 bits, big-endian, lowercase hex).
 */
public final class Xxh3 {
  private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long P32_1 = 0x9E3779B1L;
  private static final long P32_2 = 0x85EBCA77L;
  private static final long P32_3 = 0xC2B2AE3DL;
  private static final long P64_1 = 0x9E3779B185EBCA87L;
  private static final long P64_2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P64_3 = 0x165667B19E3779F9L;
  private static final long P64_4 = 0x85EBCA77C2B2AE63L;
  private static final long P64_5 = 0x27D4EB2F165667C5L;
  private static final long PRIME_MX1 = 0x165667919E3779F9L;
  private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;

  private static final int STRIPE = 64;
  private static final int SECRET_SIZE = 192;
  private static final int STRIPES_PER_BLOCK = (SECRET_SIZE - STRIPE) / 8;
  private static final int BLOCK = STRIPE * STRIPES_PER_BLOCK;

  /** The default 192-byte secret of the XXH3 family. */
  private static final byte[] DEFAULT_SECRET = bytes(
      0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
      0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
      0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
      0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
      0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
      0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
      0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
      0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
      0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
      0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
      0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
      0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e);

  private Xxh3() {}

  /** A 128-bit hash value. */
  public record Hash128(long low, long high) {
    /** Canonical form: 32 lowercase hex characters, high half first. */
    public String hex() {
      return String.format("%016x%016x", high, low);
    }
  }

  public static Hash128 hash128(byte[] data) {
    return hash128(data, 0, data.length, 0L);
  }

  public static Hash128 hash128(byte[] data, long seed) {
    return hash128(data, 0, data.length, seed);
  }

  public static Hash128 hash128(byte[] in, int off, int len, long seed) {
    if (off < 0 || len < 0 || off + len > in.length) {
      throw new IndexOutOfBoundsException("range " + off + "+" + len + " outside " + in.length);
    }
    byte[] s = DEFAULT_SECRET;
    if (len <= 16) {
      return short128(in, off, len, s, seed);
    }
    if (len <= 128) {
      return len17to128(in, off, len, s, seed);
    }
    if (len <= 240) {
      return len129to240(in, off, len, s, seed);
    }
    return long128(in, off, len, seed == 0 ? s : seededSecret(seed));
  }

  private static Hash128 short128(byte[] in, int off, int len, byte[] s, long seed) {
    if (len > 8) {
      long flipL = (r64(s, 32) ^ r64(s, 40)) - seed;
      long flipH = (r64(s, 48) ^ r64(s, 56)) + seed;
      long inLo = r64(in, off);
      long inHi = r64(in, off + len - 8);
      long[] m = mul128(inLo ^ inHi ^ flipL, P64_1);
      long mLo = m[0] + ((long) (len - 1) << 54);
      inHi ^= flipH;
      long mHi = m[1] + inHi + (inHi & 0xFFFFFFFFL) * (P32_2 - 1);
      mLo ^= Long.reverseBytes(mHi);
      long[] h = mul128(mLo, P64_2);
      long hHi = h[1] + mHi * P64_2;
      return new Hash128(avalanche(h[0]), avalanche(hHi));
    }
    if (len >= 4) {
      seed ^= (long) Integer.reverseBytes((int) seed) << 32;
      long inLo = r32(in, off);
      long inHi = r32(in, off + len - 4);
      long input64 = inLo + (inHi << 32);
      long flip = (r64(s, 16) ^ r64(s, 24)) + seed;
      long[] m = mul128(input64 ^ flip, P64_1 + ((long) len << 2));
      long hi = m[1] + (m[0] << 1);
      long lo = m[0] ^ (hi >>> 3);
      lo ^= lo >>> 35;
      lo *= PRIME_MX2;
      lo ^= lo >>> 28;
      return new Hash128(lo, avalanche(hi));
    }
    if (len > 0) {
      int c1 = in[off] & 0xFF;
      int c2 = in[off + (len >> 1)] & 0xFF;
      int c3 = in[off + len - 1] & 0xFF;
      int combinedL = (c1 << 16) | (c2 << 24) | c3 | (len << 8);
      int combinedH = Integer.rotateLeft(Integer.reverseBytes(combinedL), 13);
      long flipL = (r32(s, 0) ^ r32(s, 4)) + seed;
      long flipH = (r32(s, 8) ^ r32(s, 12)) - seed;
      long keyedL = (combinedL & 0xFFFFFFFFL) ^ flipL;
      long keyedH = (combinedH & 0xFFFFFFFFL) ^ flipH;
      return new Hash128(xxh64Avalanche(keyedL), xxh64Avalanche(keyedH));
    }
    return new Hash128(xxh64Avalanche(seed ^ r64(s, 64) ^ r64(s, 72)),
        xxh64Avalanche(seed ^ r64(s, 80) ^ r64(s, 88)));
  }

  private static Hash128 len17to128(byte[] in, int off, int len, byte[] s, long seed) {
    long[] acc = {len * P64_1, 0};
    if (len > 32) {
      if (len > 64) {
        if (len > 96) {
          mix32(acc, in, off + 48, off + len - 64, s, 96, seed);
        }
        mix32(acc, in, off + 32, off + len - 48, s, 64, seed);
      }
      mix32(acc, in, off + 16, off + len - 32, s, 32, seed);
    }
    mix32(acc, in, off, off + len - 16, s, 0, seed);
    return finishMid(acc, len, seed);
  }

  private static Hash128 len129to240(byte[] in, int off, int len, byte[] s, long seed) {
    long[] acc = {len * P64_1, 0};
    for (int i = 32; i < 160; i += 32) {
      mix32(acc, in, off + i - 32, off + i - 16, s, i - 32, seed);
    }
    acc[0] = avalanche(acc[0]);
    acc[1] = avalanche(acc[1]);
    for (int i = 160; i <= len; i += 32) {
      mix32(acc, in, off + i - 32, off + i - 16, s, 3 + i - 160, seed);
    }
    mix32(acc, in, off + len - 16, off + len - 32, s, 136 - 17 - 16, -seed);
    return finishMid(acc, len, seed);
  }

  private static Hash128 finishMid(long[] acc, int len, long seed) {
    long lo = acc[0] + acc[1];
    long hi = acc[0] * P64_1 + acc[1] * P64_4 + (len - seed) * P64_2;
    return new Hash128(avalanche(lo), -avalanche(hi));
  }

  private static void mix32(long[] acc, byte[] in, int in1, int in2, byte[] s, int so, long seed) {
    acc[0] += mix16(in, in1, s, so, seed);
    acc[0] ^= r64(in, in2) + r64(in, in2 + 8);
    acc[1] += mix16(in, in2, s, so + 16, seed);
    acc[1] ^= r64(in, in1) + r64(in, in1 + 8);
  }

  private static long mix16(byte[] in, int io, byte[] s, int so, long seed) {
    return fold64(r64(in, io) ^ (r64(s, so) + seed), r64(in, io + 8) ^ (r64(s, so + 8) - seed));
  }

  private static Hash128 long128(byte[] in, int off, int len, byte[] s) {
    long[] acc = {P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1};
    int blocks = (len - 1) / BLOCK;
    for (int n = 0; n < blocks; n++) {
      int base = off + n * BLOCK;
      for (int k = 0; k < STRIPES_PER_BLOCK; k++) {
        accumulate512(acc, in, base + k * STRIPE, s, k * 8);
      }
      scramble(acc, s, SECRET_SIZE - STRIPE);
    }
    int stripes = ((len - 1) - BLOCK * blocks) / STRIPE;
    int base = off + blocks * BLOCK;
    for (int k = 0; k < stripes; k++) {
      accumulate512(acc, in, base + k * STRIPE, s, k * 8);
    }
    accumulate512(acc, in, off + len - STRIPE, s, SECRET_SIZE - STRIPE - 7);
    long lo = mergeAccs(acc, s, 11, len * P64_1);
    long hi = mergeAccs(acc, s, SECRET_SIZE - STRIPE - 11, ~(len * P64_2));
    return new Hash128(lo, hi);
  }

  private static void accumulate512(long[] acc, byte[] in, int io, byte[] s, int so) {
    for (int i = 0; i < 8; i++) {
      long v = r64(in, io + 8 * i);
      long k = v ^ r64(s, so + 8 * i);
      acc[i ^ 1] += v;
      acc[i] += (k & 0xFFFFFFFFL) * (k >>> 32);
    }
  }

  private static void scramble(long[] acc, byte[] s, int so) {
    for (int i = 0; i < 8; i++) {
      long a = acc[i];
      a ^= a >>> 47;
      a ^= r64(s, so + 8 * i);
      acc[i] = a * P32_1;
    }
  }

  private static long mergeAccs(long[] acc, byte[] s, int so, long start) {
    long r = start;
    for (int i = 0; i < 4; i++) {
      r += fold64(acc[2 * i] ^ r64(s, so + 16 * i), acc[2 * i + 1] ^ r64(s, so + 16 * i + 8));
    }
    return avalanche(r);
  }

  private static byte[] seededSecret(long seed) {
    byte[] out = new byte[SECRET_SIZE];
    for (int i = 0; i < SECRET_SIZE / 16; i++) {
      LE64.set(out, 16 * i, r64(DEFAULT_SECRET, 16 * i) + seed);
      LE64.set(out, 16 * i + 8, r64(DEFAULT_SECRET, 16 * i + 8) - seed);
    }
    return out;
  }

  private static long[] mul128(long a, long b) {
    long hi = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    return new long[] {a * b, hi};
  }

  private static long fold64(long a, long b) {
    long hi = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    return (a * b) ^ hi;
  }

  private static long avalanche(long h) {
    h ^= h >>> 37;
    h *= PRIME_MX1;
    return h ^ (h >>> 32);
  }

  private static long xxh64Avalanche(long h) {
    h ^= h >>> 33;
    h *= P64_2;
    h ^= h >>> 29;
    h *= P64_3;
    return h ^ (h >>> 32);
  }

  private static long r64(byte[] b, int i) {
    return (long) LE64.get(b, i);
  }

  private static long r32(byte[] b, int i) {
    return ((int) LE32.get(b, i)) & 0xFFFFFFFFL;
  }

  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }
}
