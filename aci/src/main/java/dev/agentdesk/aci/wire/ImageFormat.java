package dev.agentdesk.aci.wire;

/** Wire image codec (schema {@code ImageFormat}); absent means png. */
public enum ImageFormat implements WireEnum {
  PNG("png"),
  JPEG("jpeg");

  private final String wire;

  ImageFormat(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
