package dev.agentdesk.aci.recording;

import java.nio.file.Path;

/**
 * Where a replay differed from its recording: the entry, the call, a one-line {@code what}, the
 * images when the observation had any (the recorded, the replayed and a diff picture: the replayed
 * faded, differing pixels red, masked ones tinted blue; written to the report folder, null when
 * absent), and the tree_text diff when the accessibility tree differed (null otherwise).
 */
public record Divergence(int index, String callId, String what, Path recordedImage, Path replayedImage,
    Path diffImage, String treeDiff) {}
