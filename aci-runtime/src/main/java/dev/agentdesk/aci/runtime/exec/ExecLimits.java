package dev.agentdesk.aci.runtime.exec;

/** The exec caps, equal to the reference runtime's. */
public final class ExecLimits {
  public static final int MAX_CONCURRENT = 4;
  public static final long DEFAULT_TIMEOUT_MS = 60_000;
  public static final long MAX_TIMEOUT_MS = 600_000;
  public static final int BUFFERED_CHANNEL_CAP = 256 * 1024;
  public static final int STREAM_CHUNK = 64 * 1024;
  public static final long STREAM_TOTAL = 8L * 1024 * 1024;
  /** How long we keep reading pipes after the child is reaped (grandchildren may hold them). */
  public static final long DRAIN_GRACE_MS = 500;

  private ExecLimits() {}
}
