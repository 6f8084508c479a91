package dev.agentdesk.computeruse;

/**
 * The display size a computer-use tool was declared with ({@code display_width_px} ×
 * {@code display_height_px} for Anthropic, {@code display_width} × {@code display_height} for
 * OpenAI). The model sees screenshots of exactly this size and answers in its coordinates.
 */
public record DisplaySize(int width, int height) {
  public DisplaySize {
    if (width < 1 || height < 1) {
      throw new IllegalArgumentException("display size must be at least 1x1, got " + width + "x" + height);
    }
  }

  /** Parses {@code WxH} ({@code 1024x768}); a malformed size is an {@link IllegalArgumentException}. */
  public static DisplaySize parse(String wxh) {
    String[] parts = wxh.toLowerCase(java.util.Locale.ROOT).split("x", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException("display size must be WxH such as 1024x768, got \"" + wxh + "\"");
    }
    try {
      return new DisplaySize(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("display size must be WxH such as 1024x768, got \"" + wxh + "\"", e);
    }
  }

  @Override
  public String toString() {
    return width + "x" + height;
  }
}
