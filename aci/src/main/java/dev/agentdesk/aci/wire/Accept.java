package dev.agentdesk.aci.wire;

import java.util.List;

/**
 * {@code hello.accept}: what the client can take. Both components may be null (absent);
 * binary framing is on only when {@code binaryFrames} is exactly true.
 */
public record Accept(List<ObservationType> observationTypes, Boolean binaryFrames) {
  public Accept {
    observationTypes = Check.list(observationTypes, "observation_types");
  }

  public boolean wantsBinaryFrames() {
    return Boolean.TRUE.equals(binaryFrames);
  }
}
