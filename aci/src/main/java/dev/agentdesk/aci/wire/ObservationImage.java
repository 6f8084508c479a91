package dev.agentdesk.aci.wire;

/**
 * The image of a text observation: base64 {@code ref} of the encoded bytes and its dimensions;
 * {@code scope}/{@code format} may be null (absent; format absent means png).
 */
public record ObservationImage(String ref, long w, long h, Scope scope, ImageFormat format) {
  public ObservationImage {
    Check.required(ref, "ref");
  }
}
