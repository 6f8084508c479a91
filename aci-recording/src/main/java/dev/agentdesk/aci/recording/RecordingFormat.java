package dev.agentdesk.aci.recording;

import java.util.regex.Pattern;

/**
 * The on-disk layout of a recording folder, in one place.
 *
 * <pre>
 * DIR/segment-000001.jsonl   one JSON object per line, appended and written whole per message
 * DIR/segment-000002.jsonl   the next segment once the previous passed Limits.segmentBytes
 * DIR/frames/KEY.png|jpg     each image once; messages carry "ref": "frame:KEY" instead of base64
 * </pre>
 *
 * A segment's first line is its header {@code {"recording":"agentdesk-aci","v":1,"segment":N,
 * "started":"ISO-8601"}}; every other line is an entry: {@code {"t":MS,"conn":N,"dir":"c2s"|"s2c",
 * "msg":{…}}} for a message ({@code "binary":true} when it travelled as a binary frame; {@code "raw"}
 * instead of {@code msg} for text that was not JSON), or {@code {"t":MS,"conn":N,"event":"open"|"close"}}.
 * {@code t} is milliseconds since the recording started (monotonic), {@code started} plus {@code t}
 * the wall time. A frame file is written (to a temporary name, then moved) before the line that
 * names it, so a recorder killed at any point leaves every complete line readable with its images.
 */
final class RecordingFormat {
  static final String MAGIC = "agentdesk-aci";
  static final int VERSION = 1;
  static final String FRAMES = "frames";
  static final String FRAME_REF = "frame:";
  static final String REDACTED = "<redacted>";
  static final Pattern SEGMENT = Pattern.compile("segment-(\\d{6})\\.jsonl");

  private RecordingFormat() {}

  static String segmentName(int n) {
    return String.format("segment-%06d.jsonl", n);
  }
}
