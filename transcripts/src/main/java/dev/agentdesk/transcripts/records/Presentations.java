package dev.agentdesk.transcripts.records;

/** The closed vocabulary of {@link ToolCallRecord#presentation()} values. */
public final class Presentations {
  private Presentations() {}

  public static final String SHELL = "shell";
  public static final String READ = "read";
  public static final String EDIT = "edit";
  public static final String SEARCH = "search";
  public static final String WEB = "web";
  public static final String TODO_LIST = "todo";
  public static final String SKILL = "skill";
  public static final String SUBAGENT = "subagent";
  public static final String WORKFLOW = "workflow";
  public static final String MCP = "mcp";
  public static final String GENERIC = "generic";
  /** A result whose call is not in the session (for example cut off by a fork). */
  public static final String UNKNOWN = "unknown";
}
