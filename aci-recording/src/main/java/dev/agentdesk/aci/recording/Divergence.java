package dev.agentdesk.aci.recording;

import java.nio.file.Path;

/**
 * Where a replay first differed from its recording: the entry, the call, a one-line {@code what},
 * both images when an image differed (written to the report folder), and the tree_text diff when
 * the accessibility tree differed (null otherwise).
 */
public record Divergence(int index, String callId, String what, Path recordedImage, Path replayedImage,
    String treeDiff) {}
