package dev.agentdesk.aci.client;

import dev.agentdesk.aci.wire.ObservationMsg;
import java.util.Arrays;

/**
 * A screenshot: the observation as received (for a {@code not_modified} reply, the reply itself),
 * the encoded image bytes, and whether those bytes came from the client's frame cache.
 */
public record Screenshot(ObservationMsg observation, byte[] image, long width, long height, boolean fromCache) {
  public Screenshot {
    image = image.clone();
  }

  @Override
  public byte[] image() {
    return image.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Screenshot s && s.observation.equals(observation) && Arrays.equals(s.image, image)
        && s.width == width && s.height == height && s.fromCache == fromCache;
  }

  @Override
  public int hashCode() {
    return observation.hashCode() * 31 + Arrays.hashCode(image);
  }

  @Override
  public String toString() {
    return "Screenshot[" + width + "x" + height + ", " + image.length + " bytes" + (fromCache ? ", cached" : "") + "]";
  }
}
