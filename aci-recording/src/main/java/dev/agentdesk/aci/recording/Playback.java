package dev.agentdesk.aci.recording;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * A recording laid out for playing it back: every entry as a {@link Step} of a timeline (actions
 * and observations summarised), which frame the screen showed at each step, and that frame as an
 * image. Screenshots and keyframes are served as recorded; a screencast's delta tiles are composed
 * onto their keyframe here, with a cache of composed screens so that stepping costs one delta and
 * a jump at most one keyframe decode plus the deltas after it (a keyframe comes every 30 frames).
 *
 * <p>Opening reads every line (no image); frames are read and decoded when asked for. Thread-safe:
 * {@link #frame} is serialised, everything else is immutable.
 */
public final class Playback {
  /** A point in the runtime's global action pixels. */
  public record Point(double x, double y) {}

  /** A rectangle in global action pixels. */
  public record Rect(double x, double y, double w, double h) {}

  /** A size in pixels. */
  public record Size(long w, long h) {}

  /**
   * An action as a person reads it.
   *
   * @param label one line, e.g. {@code click (412, 220)} or {@code type_text "abc"}
   * @param target the target's kind on the wire ({@code point_px}, {@code point_norm}, {@code element_ref}), or null
   * @param at where it acts in global pixels: given, scaled from a normalised point by the screen
   *     size, or the centre of the element's box in the last structured observation; null when unknown
   * @param to a drag's destination, likewise
   * @param ref an element target's ref
   * @param observe whether it asked for an observation after it (observe-after-act)
   */
  public record Action(String verb, String label, String target, Point at, Point to, String ref, String text,
      String keys, Double dx, Double dy, Long ms, boolean observe) {}

  /** What an observation carried. */
  public enum ObservationKind {
    /** A still image: a screenshot or an observe-after-act follow-up. */
    SCREENSHOT,
    /** A screencast frame with the whole picture. */
    KEYFRAME,
    /** A screencast frame with only the tiles that changed. */
    DELTA,
    /** A screenshot answered "unchanged since frame_hash". */
    NOT_MODIFIED,
    /** No image: an accessibility tree only. */
    TREE;

    @JsonValue
    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * An observation's metadata.
   *
   * @param w the image's width (for a delta: the composed screen's), or null without an image
   * @param source what part of the screen the image shows, in global pixels, when the recording
   *     says (a screenshot's {@code display.source_rect}; a full-screen stream frame's screen)
   * @param problem why this frame cannot be shown (a delta whose keyframe was dropped), or null
   */
  public record Observation(String obsId, ObservationKind kind, String cause, String stream, Long seq, int tiles,
      String frameHash, String tree, String treeText, Long w, Long h, String format, Rect source, Point pointer,
      String problem) {}

  /**
   * One entry of the recording.
   *
   * @param index its position, 0-based: the step number
   * @param tMs milliseconds since the recording started
   * @param dir which way a message went; null for a connection event
   * @param event {@code open} or {@code close} for a connection event, else null
   * @param type the message's type ({@code action}, {@code observation}, …), {@code raw} for text
   *     that was not JSON
   * @param ok an ack's or result's ok, else null
   * @param error an ack's or result's error, else null
   * @param frame the step whose image the screen showed at this step, -1 before the first
   * @param tree the step whose {@code tree_text} was the latest at this step, -1 before the first
   */
  public record Step(int index, double tMs, int conn, Direction dir, String event, String type, String callId,
      Action action, Observation observation, Boolean ok, String error, int frame, int tree) {}

  /**
   * How the recording ended.
   *
   * @param clean every connection closed and no line was cut short
   * @param reason why it is not clean, in words, or null
   * @param tornLines lines cut short by a killed recorder (0 or 1)
   * @param openConnections connections that never closed
   */
  public record Ending(boolean clean, String reason, int tornLines, List<Integer> openConnections) {
    public Ending {
      openConnections = List.copyOf(openConnections);
    }
  }

  /**
   * A recording at a glance.
   *
   * @param started wall time of the start, or null
   * @param durationMs the last entry's time
   * @param steps entries in the timeline
   * @param actions actions the clients sent
   * @param observations observations the runtime sent
   * @param frames observations whose image can be shown
   * @param screen the screen's size when the recording says (a display, a screen_size answer, else
   *     the first full image), or null
   * @param bytes the folder's size on disk
   * @param firstSegment above 1 when rotation dropped the oldest segments
   */
  public record Summary(@JsonSerialize(using = ToStringSerializer.class) Instant started, double durationMs, int steps, int messages, int actions, int observations,
      int frames, int connections, Size screen, Ending ending, int segments, int firstSegment, long bytes) {}

  /**
   * The screen at a step.
   *
   * @param step the step whose observation made this image
   * @param bytes the encoded image
   * @param mimeType {@code image/png} or {@code image/jpeg}
   * @param composed whether tiles were composed (else the recorded file as it is)
   * @param nanos how long reading, composing and encoding took
   */
  public record Frame(int step, byte[] bytes, String mimeType, long w, long h, boolean composed, long nanos) {}

  private final Recording recording;
  private final List<Step> steps;
  private final Summary summary;
  private final FrameComposer composer;

  private Playback(Recording recording, Timeline timeline) {
    this.recording = recording;
    this.steps = timeline.steps();
    this.composer = new FrameComposer(recording, timeline.sources());
    this.summary = timeline.summary(recording, folderBytes(recording.dir()));
  }

  /** Opens the recording in {@code dir}; a damaged folder is a {@link RecordingException} naming the file. */
  public static Playback open(Path dir) {
    return of(Recording.open(dir));
  }

  public static Playback of(Recording recording) {
    return new Playback(recording, Timeline.build(recording));
  }

  public Recording recording() {
    return recording;
  }

  public List<Step> steps() {
    return steps;
  }

  public Summary summary() {
    return summary;
  }

  /**
   * The screen as it was at {@code step}: the image of {@code steps().get(step).frame()}.
   *
   * @throws IllegalArgumentException when {@code step} is outside the timeline
   * @throws java.util.NoSuchElementException when nothing had been seen by then
   * @throws RecordingException when a frame file is missing or does not decode
   */
  public Frame frame(int step) {
    if (step < 0 || step >= steps.size()) {
      throw new IllegalArgumentException("step " + step + " is outside the recording (0 to " + (steps.size() - 1) + ")");
    }
    int at = steps.get(step).frame();
    if (at < 0) {
      throw new java.util.NoSuchElementException("no frame had been recorded by step " + step);
    }
    return composer.frame(at);
  }

  private static long folderBytes(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0; // a file removed while we walked (rotation) no longer counts
        }
      }).sum();
    } catch (IOException e) {
      return 0;
    }
  }
}
