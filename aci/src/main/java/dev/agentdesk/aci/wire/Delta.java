package dev.agentdesk.aci.wire;

import java.util.List;

/** Element changes since the previous observation; each list may be null (absent). */
public record Delta(List<Element> added, List<String> removed, List<Element> changed) {
  public Delta {
    added = Check.list(added, "added");
    removed = Check.list(removed, "removed");
    changed = Check.list(changed, "changed");
  }
}
