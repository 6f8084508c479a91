package dev.agentdesk.testkit;

/** Starts an Xvfb, prints its pid and exits without closing it (what a failed JMH fork does). */
public final class XvfbOrphanMain {
  private XvfbOrphanMain() {}

  public static void main(String[] args) throws Exception {
    XvfbServer server = XvfbServer.start(320, 200);
    System.out.println(server.pid());
    System.out.flush();
    System.exit(3);
  }
}
