package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinaryFramesTest {
  private static final Base64.Encoder B64 = Base64.getEncoder();

  /** Builds a frame by hand so that tests can break it in ways the encoder never would. */
  private static byte[] frame(String headerJson, byte[] payload) {
    byte[] header = headerJson.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + header.length + payload.length).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(header.length).put(header).put(payload).array();
  }

  private static WireException fails(byte[] frame) {
    try {
      BinaryFrames.decode(frame);
    } catch (WireException e) {
      return e;
    }
    throw new AssertionError("frame decoded without error");
  }

  @Test
  void screenshotRoundTripsThroughTheBinaryForm() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, 3};
    ObservationMsg text = ObservationMsg.builder("obs-c1").cause("c1")
        .image(new ObservationImage(B64.encodeToString(png), 8, 4, Scope.SCREEN, ImageFormat.PNG))
        .frameHash("00ff").pointer(new PointerPosition(3, 4)).build();
    byte[] wire = BinaryFrames.encode(BinaryFrames.fromObservation(text));
    int headerLen = ByteBuffer.wrap(wire).order(ByteOrder.LITTLE_ENDIAN).getInt();
    String header = new String(wire, 4, headerLen, StandardCharsets.UTF_8);
    assertThat(WireContract.bundled().validate("#/$defs/BinaryFrameHeader", header)).isEmpty();
    assertThat(header).doesNotContain("ref");
    assertThat(wire.length).isEqualTo(4 + headerLen + png.length);

    BinaryFrame.Media decoded = (BinaryFrame.Media) BinaryFrames.decode(wire);
    assertThat(decoded.image()).isEqualTo(png);
    assertThat(BinaryFrames.toObservation(decoded)).isEqualTo(text);
  }

  @Test
  void deltaTilesAreConcatenatedInTileOrder() {
    ObservationMsg text = ObservationMsg.builder("s-7").stream("s").seq(7L)
        .tiles(List.of(new Tile(0, 0, 64, 64, B64.encodeToString(new byte[] {1, 2})),
            new Tile(64, 0, 64, 64, B64.encodeToString(new byte[] {3, 4, 5}))))
        .build();
    BinaryFrame.Media media = BinaryFrames.fromObservation(text);
    assertThat(media.header().tiles()).extracting(BinaryTile::off, BinaryTile::len)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 2L), org.assertj.core.groups.Tuple.tuple(2L, 3L));
    BinaryFrame.Media again = (BinaryFrame.Media) BinaryFrames.decode(BinaryFrames.encode(media));
    assertThat(again.tile(1)).containsExactly(3, 4, 5);
    assertThat(BinaryFrames.toObservation(again)).isEqualTo(text);
  }

  @Test
  void execOutputCarriesRawBytesThatNeedNotBeUtf8() {
    byte[] bytes = {(byte) 0xff, (byte) 0xfe, 0, 'x'};
    ExecOutputMsg text = ExecOutputMsg.of("c9", 3, Channel.STDERR, bytes);
    BinaryFrame frame = BinaryFrames.decode(BinaryFrames.encode(BinaryFrames.fromExecOutput(text)));
    assertThat(frame).isInstanceOf(BinaryFrame.ExecOutput.class);
    assertThat(((BinaryFrame.ExecOutput) frame).data()).isEqualTo(bytes);
    assertThat(BinaryFrames.toExecOutput((BinaryFrame.ExecOutput) frame)).isEqualTo(text);
  }

  @Test
  void shortFramesAndHeaderLengthsPastTheFrameAreTruncation() {
    assertThat(fails(new byte[] {1, 0}).reason()).isEqualTo(Reason.FRAME_TRUNCATED);
    byte[] f = frame("{\"type\":\"observation\",\"obs_id\":\"o\"}", new byte[0]);
    ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(0, f.length);
    assertThat(fails(f).reason()).isEqualTo(Reason.FRAME_TRUNCATED);
    ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(0, -1); // u32 0xffffffff
    assertThat(fails(f).reason()).isEqualTo(Reason.FRAME_TRUNCATED);
  }

  @Test
  void rangesPastThePayloadAreRefused() {
    WireException e = fails(frame(
        "{\"type\":\"observation\",\"obs_id\":\"o\",\"image\":{\"off\":2,\"len\":5,\"w\":1,\"h\":1}}", new byte[6]));
    assertThat(e.reason()).isEqualTo(Reason.RANGE_OUT_OF_BOUNDS);
    assertThat(e.path()).isEqualTo("/image");
    WireException huge = fails(frame("{\"type\":\"exec_output\",\"cause\":\"c\",\"seq\":0,\"channel\":\"stdout\","
        + "\"data\":{\"off\":9223372036854775807,\"len\":9223372036854775807}}", new byte[6]));
    assertThat(huge.reason()).isEqualTo(Reason.RANGE_OUT_OF_BOUNDS);
  }

  @Test
  void negativeRangesAreRefused() {
    WireException e = fails(frame(
        "{\"type\":\"observation\",\"obs_id\":\"o\",\"image\":{\"off\":-1,\"len\":1,\"w\":1,\"h\":1}}", new byte[2]));
    assertThat(e.reason()).isEqualTo(Reason.NEGATIVE_RANGE);
    assertThat(e.path()).isEqualTo("/image/off");
    WireException len = fails(frame("{\"type\":\"exec_output\",\"cause\":\"c\",\"seq\":0,\"channel\":\"stdout\","
        + "\"data\":{\"off\":0,\"len\":-3}}", new byte[2]));
    assertThat(len.reason()).isEqualTo(Reason.NEGATIVE_RANGE);
    assertThat(len.path()).isEqualTo("/data/len");
  }

  @Test
  void overlappingTilesAreRefused() {
    WireException e = fails(frame("{\"type\":\"observation\",\"obs_id\":\"o\",\"stream\":\"s\",\"seq\":0,\"tiles\":["
        + "{\"x\":0,\"y\":0,\"w\":1,\"h\":1,\"off\":0,\"len\":4},"
        + "{\"x\":1,\"y\":0,\"w\":1,\"h\":1,\"off\":3,\"len\":2}]}", new byte[8]));
    assertThat(e.reason()).isEqualTo(Reason.OVERLAPPING_RANGES);
    assertThat(e.path()).isEqualTo("/tiles/1");
  }

  @Test
  void aMediaFrameWithoutImageOrTilesIsMissingItsPayload() {
    assertThat(fails(frame("{\"type\":\"observation\",\"obs_id\":\"o\"}", new byte[0])).reason())
        .isEqualTo(Reason.MISSING_PAYLOAD);
  }

  @Test
  void headerErrorsKeepTheirDecodeReasons() {
    assertThat(fails(frame("{nope", new byte[0])).reason()).isEqualTo(Reason.MALFORMED_JSON);
    assertThat(fails(frame("{\"type\":\"ack\"}", new byte[0])).reason()).isEqualTo(Reason.UNKNOWN_TYPE);
    WireException e = fails(frame("{\"type\":\"observation\",\"obs_id\":\"o\",\"image\":{\"ref\":\"x\",\"w\":1,\"h\":1}}",
        new byte[0]));
    assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_FIELD);
    assertThat(e.path()).isEqualTo("/image/ref");
  }

  @Test
  void anObservationWithFieldsABinaryHeaderLacksIsNotSilentlyCut() {
    ObservationMsg structured = ObservationMsg.builder("o").cause("c").treeText("tree")
        .image(new ObservationImage("AA==", 1, 1, null, null)).build();
    assertThatThrownBy(() -> BinaryFrames.fromObservation(structured))
        .isInstanceOfSatisfying(WireException.class, e -> assertThat(e.path()).isEqualTo("/tree_text"));
    ObservationMsg notModified = ObservationMsg.builder("o").cause("c").frameHash("h").notModified(true).build();
    assertThatThrownBy(() -> BinaryFrames.fromObservation(notModified)).isInstanceOf(WireException.class);
  }
}
