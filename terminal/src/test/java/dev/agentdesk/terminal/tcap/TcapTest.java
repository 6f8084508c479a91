package dev.agentdesk.terminal.tcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TcapTest {
  @TempDir
  Path dir;

  private static final List<CaptureRecord> RECORDS = List.of(
      new CaptureRecord(Direction.OUTPUT, 0, "hello\r\n".getBytes(StandardCharsets.UTF_8)),
      new CaptureRecord(Direction.INPUT, 1_500, "y\r".getBytes(StandardCharsets.UTF_8)),
      new CaptureRecord(Direction.OUTPUT, 1_500, new byte[0]),
      new CaptureRecord(Direction.OUTPUT, 9_000_000_123L, new byte[] {0x1b, ']', '9', ';', '4', ';', '1', ';', '5', 7}));

  private static List<CaptureRecord> read(byte[] bytes) throws IOException {
    List<CaptureRecord> out = new ArrayList<>();
    try (TcapReader r = TcapReader.open(new ByteArrayInputStream(bytes))) {
      for (CaptureRecord rec = r.next(); rec != null; rec = r.next()) {
        out.add(rec);
      }
    }
    return out;
  }

  @Test
  void writtenFileReadsBackRecordForRecord() throws IOException {
    Path f = dir.resolve("s.tcap");
    try (TcapWriter w = TcapWriter.create(f)) {
      for (CaptureRecord r : RECORDS) {
        w.write(r);
      }
    }
    assertThat(TcapReader.readAll(f)).isEqualTo(RECORDS);
    byte[] raw = Files.readAllBytes(f);
    assertThat(new String(raw, 0, 9, StandardCharsets.US_ASCII)).isEqualTo("TUICCAP1\n");
    // First record header: direction 0, elapsed 0 (u64 LE), length 7 (u32 LE).
    assertThat(Arrays.copyOfRange(raw, 9, 22)).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0);
  }

  @Test
  void aFileWithoutMagicIsOneOutputRecord() throws IOException {
    byte[] raw = "\u001b[31mplain output\u001b[0m".getBytes(StandardCharsets.UTF_8);
    try (TcapReader r = TcapReader.open(new ByteArrayInputStream(raw))) {
      assertThat(r.framed()).isFalse();
      assertThat(r.next()).isEqualTo(new CaptureRecord(Direction.OUTPUT, 0, raw));
      assertThat(r.next()).isNull();
    }
    assertThat(read(new byte[0])).containsExactly(new CaptureRecord(Direction.OUTPUT, 0, new byte[0]));
  }

  @Test
  void truncationInsideAHeaderNamesTheRecordOffset() throws IOException {
    byte[] full = TcapReader.toBytes(RECORDS);
    int secondRecord = 9 + 13 + 7;
    byte[] cut = Arrays.copyOf(full, secondRecord + 5);
    assertThatThrownBy(() -> read(cut))
        .isInstanceOfSatisfying(CaptureFormatException.class, e -> {
          assertThat(e.reason()).isEqualTo(CaptureFormatException.Reason.TRUNCATED);
          assertThat(e.offset()).isEqualTo(secondRecord);
        })
        .hasMessageContaining("byte offset " + secondRecord).hasMessageContaining("header");
  }

  @Test
  void truncationInsideAPayloadNamesTheRecordOffsetAndKeepsEarlierRecords() throws IOException {
    byte[] full = TcapReader.toBytes(RECORDS);
    byte[] cut = Arrays.copyOf(full, full.length - 3);
    List<CaptureRecord> got = new ArrayList<>();
    int lastOffset = full.length - 13 - 10;
    try (TcapReader r = TcapReader.open(new ByteArrayInputStream(cut))) {
      assertThatThrownBy(() -> {
        for (CaptureRecord rec = r.next(); rec != null; rec = r.next()) {
          got.add(rec);
        }
      }).isInstanceOf(CaptureFormatException.class)
          .hasMessageContaining("byte offset " + lastOffset).hasMessageContaining("payload (7 of 10 bytes)");
    }
    assertThat(got).isEqualTo(RECORDS.subList(0, 3));
  }

  @Test
  void badDirectionAndBackwardsTimeAreTypedErrors() throws IOException {
    byte[] full = TcapReader.toBytes(RECORDS);
    byte[] badDir = full.clone();
    badDir[9] = 5;
    assertThatThrownBy(() -> read(badDir)).isInstanceOfSatisfying(CaptureFormatException.class,
        e -> assertThat(e.reason()).isEqualTo(CaptureFormatException.Reason.BAD_DIRECTION)).hasMessageContaining("offset 9");
    byte[] backwards = full.clone();
    backwards[10] = (byte) 0xd0; // first record at 2000 µs, the second stays at 1500 µs
    backwards[11] = (byte) 0x07;
    assertThatThrownBy(() -> read(backwards)).isInstanceOfSatisfying(CaptureFormatException.class,
        e -> assertThat(e.reason()).isEqualTo(CaptureFormatException.Reason.TIME_WENT_BACKWARDS))
        .hasMessageContaining("offset 29");
  }

  @Test
  void oversizedLengthIsRefusedWithoutAllocating() {
    byte[] b = new byte[9 + 13];
    System.arraycopy("TUICCAP1\n".getBytes(StandardCharsets.US_ASCII), 0, b, 0, 9);
    b[9 + 9] = (byte) 0xff;
    b[9 + 10] = (byte) 0xff;
    b[9 + 11] = (byte) 0xff;
    b[9 + 12] = (byte) 0x7f;
    assertThatThrownBy(() -> read(b)).isInstanceOfSatisfying(CaptureFormatException.class,
        e -> assertThat(e.reason()).isEqualTo(CaptureFormatException.Reason.OVERSIZED_RECORD));
  }

  @Test
  void writerRefusesTimeGoingBack() throws IOException {
    try (TcapWriter w = TcapWriter.open(new java.io.ByteArrayOutputStream())) {
      w.write(RECORDS.get(1));
      assertThatThrownBy(() -> w.write(RECORDS.get(0))).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
