package dev.agentdesk.aci.wire;

import java.util.List;

/**
 * A screenshot, screencast frame, structured (a11y) observation or {@code not_modified} reply.
 * Only {@code obsId} is required; everything else may be null (absent). The constructor enforces
 * the schema's rules: a stream frame has {@code seq} and an image or tiles; {@code seq} needs a
 * stream; tiles need a stream and exclude an image; {@code not_modified} (only ever true) needs
 * {@code frame_hash} and {@code cause} and carries neither image nor tiles.
 */
public record ObservationMsg(
    String obsId,
    String cause,
    String stream,
    Long seq,
    CoordinateSpace display,
    TreeForm tree,
    String treeText,
    Long revision,
    Long diffOf,
    String focus,
    Long nodeCount,
    Double captureMs,
    List<Element> elements,
    Delta delta,
    ObservationImage image,
    List<Tile> tiles,
    String frameHash,
    Boolean notModified,
    PointerPosition pointer) implements AciMessage {
  public static final String TYPE = "observation";

  public ObservationMsg {
    Check.required(obsId, "obs_id");
    Check.atLeast(seq, 0, "seq");
    Check.atLeast(revision, 1, "revision");
    Check.atLeast(diffOf, 1, "diff_of");
    Check.atLeast(nodeCount, 0, "node_count");
    Check.atLeast(captureMs, 0.0, "capture_ms");
    elements = Check.list(elements, "elements");
    tiles = Check.nonEmptyList(tiles, "tiles");
    if (notModified != null && !notModified) {
      throw new dev.agentdesk.aci.WireException(dev.agentdesk.aci.WireException.Reason.INVALID_VALUE,
          "/not_modified", "not_modified is the constant true when present");
    }
    streamRules(stream, seq, image != null, tiles != null);
    if (notModified != null) {
      Check.rule(frameHash != null, "frame_hash", "not_modified requires frame_hash");
      Check.rule(cause != null, "cause", "not_modified requires cause");
      Check.rule(image == null, "image", "not_modified never carries an image");
      Check.rule(tiles == null, "tiles", "not_modified never carries tiles");
    }
  }

  /** The three stream rules that ObservationMsg and BinaryFrameHeader share. */
  static void streamRules(String stream, Long seq, boolean hasImage, boolean hasTiles) {
    if (stream != null) {
      Check.rule(seq != null, "seq", "a stream frame requires seq");
      Check.rule(hasImage || hasTiles, "", "a stream frame requires image or tiles");
    }
    if (seq != null) {
      Check.rule(stream != null, "stream", "seq requires a stream");
    }
    if (hasTiles) {
      Check.rule(stream != null, "stream", "tiles require a stream");
      Check.rule(!hasImage, "image", "tiles come instead of an image, never both");
    }
  }

  public boolean isNotModified() {
    return Boolean.TRUE.equals(notModified);
  }

  public static Builder builder(String obsId) {
    return new Builder(obsId);
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** Mutable staging area for an {@link ObservationMsg}; {@link #build()} runs every check. */
  public static final class Builder {
    private String obsId;
    private String cause;
    private String stream;
    private Long seq;
    private CoordinateSpace display;
    private TreeForm tree;
    private String treeText;
    private Long revision;
    private Long diffOf;
    private String focus;
    private Long nodeCount;
    private Double captureMs;
    private List<Element> elements;
    private Delta delta;
    private ObservationImage image;
    private List<Tile> tiles;
    private String frameHash;
    private Boolean notModified;
    private PointerPosition pointer;

    private Builder(String obsId) {
      this.obsId = obsId;
    }

    private Builder(ObservationMsg o) {
      obsId = o.obsId; cause = o.cause; stream = o.stream; seq = o.seq; display = o.display; tree = o.tree;
      treeText = o.treeText; revision = o.revision; diffOf = o.diffOf; focus = o.focus; nodeCount = o.nodeCount;
      captureMs = o.captureMs; elements = o.elements; delta = o.delta; image = o.image; tiles = o.tiles;
      frameHash = o.frameHash; notModified = o.notModified; pointer = o.pointer;
    }

    public Builder obsId(String v) { obsId = v; return this; }
    public Builder cause(String v) { cause = v; return this; }
    public Builder stream(String v) { stream = v; return this; }
    public Builder seq(Long v) { seq = v; return this; }
    public Builder display(CoordinateSpace v) { display = v; return this; }
    public Builder tree(TreeForm v) { tree = v; return this; }
    public Builder treeText(String v) { treeText = v; return this; }
    public Builder revision(Long v) { revision = v; return this; }
    public Builder diffOf(Long v) { diffOf = v; return this; }
    public Builder focus(String v) { focus = v; return this; }
    public Builder nodeCount(Long v) { nodeCount = v; return this; }
    public Builder captureMs(Double v) { captureMs = v; return this; }
    public Builder elements(List<Element> v) { elements = v; return this; }
    public Builder delta(Delta v) { delta = v; return this; }
    public Builder image(ObservationImage v) { image = v; return this; }
    public Builder tiles(List<Tile> v) { tiles = v; return this; }
    public Builder frameHash(String v) { frameHash = v; return this; }
    public Builder notModified(Boolean v) { notModified = v; return this; }
    public Builder pointer(PointerPosition v) { pointer = v; return this; }

    public ObservationMsg build() {
      return new ObservationMsg(obsId, cause, stream, seq, display, tree, treeText, revision, diffOf, focus,
          nodeCount, captureMs, elements, delta, image, tiles, frameHash, notModified, pointer);
    }
  }
}
