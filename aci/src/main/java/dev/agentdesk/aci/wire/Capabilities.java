package dev.agentdesk.aci.wire;

import java.util.List;

/**
 * {@code welcome.capabilities} (schema_version is the const 0, so it is not a component). The
 * optional flags may be null (absent); the {@code supports...} methods apply the schema's
 * documented defaults for an absent flag (false, and png-only for image formats).
 */
public record Capabilities(
    List<Verb> verbs,
    List<TargetKind> targets,
    List<ObservationType> observationTypes,
    Integer maxLongEdge,
    List<ImageFormat> imageFormats,
    Boolean binaryFrames,
    Boolean frameDedup,
    Boolean observeAfterAct,
    Boolean structuredObservation) {
  public Capabilities {
    verbs = Check.list(Check.required(verbs, "verbs"), "verbs");
    targets = Check.list(Check.required(targets, "targets"), "targets");
    observationTypes = Check.list(Check.required(observationTypes, "observation_types"), "observation_types");
    Check.atLeast(maxLongEdge, 1, "max_long_edge");
    imageFormats = Check.list(imageFormats, "image_formats");
  }

  public boolean supportsVerb(Verb verb) {
    return verbs.contains(verb);
  }

  public boolean supportsTarget(TargetKind kind) {
    return targets.contains(kind);
  }

  /** Image codecs the runtime encodes; an absent list means png only. */
  public List<ImageFormat> imageFormatsOrDefault() {
    return imageFormats == null ? List.of(ImageFormat.PNG) : imageFormats;
  }

  public boolean supportsBinaryFrames() {
    return Boolean.TRUE.equals(binaryFrames);
  }

  public boolean supportsFrameDedup() {
    return Boolean.TRUE.equals(frameDedup);
  }

  public boolean supportsObserveAfterAct() {
    return Boolean.TRUE.equals(observeAfterAct);
  }

  public boolean supportsStructuredObservation() {
    return Boolean.TRUE.equals(structuredObservation);
  }
}
