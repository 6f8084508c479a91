package dev.agentdesk.terminal.parser;

/** The forge a {@link ParsedEvent.PrUrl} points at. */
public enum Platform implements WireEnum {
  GITHUB("github"), GITLAB("gitlab"), BITBUCKET("bitbucket"), AZURE_DEVOPS("azure-devops");

  private final String wire;

  Platform(String wire) {
    this.wire = wire;
  }

  /** The spelling used in the JSON form. */
  @Override
  public String wire() {
    return wire;
  }
}
