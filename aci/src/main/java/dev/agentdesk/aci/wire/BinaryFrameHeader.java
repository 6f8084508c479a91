package dev.agentdesk.aci.wire;

import java.util.List;

/**
 * The JSON header of a binary media frame (schema {@code BinaryFrameHeader}): an observation whose
 * image/tile bytes are located by off/len in the payload area instead of carried as base64. Never
 * a text message. Only {@code obsId} is required; the stream rules of {@link ObservationMsg} apply.
 */
public record BinaryFrameHeader(
    String obsId,
    String cause,
    String stream,
    Long seq,
    CoordinateSpace display,
    BinaryImageRef image,
    List<BinaryTile> tiles,
    String frameHash,
    PointerPosition pointer) {
  public static final String TYPE = "observation";

  public BinaryFrameHeader {
    Check.required(obsId, "obs_id");
    Check.atLeast(seq, 0, "seq");
    tiles = Check.nonEmptyList(tiles, "tiles");
    ObservationMsg.streamRules(stream, seq, image != null, tiles != null);
  }
}
