package dev.agentdesk.testkit;

/** Starts a server, prints its directory and waits to be killed (for {@link PostgresServerTest}). */
public final class PostgresServerChild {
  private PostgresServerChild() {}

  public static void main(String[] args) throws Exception {
    PostgresServer pg = PostgresServer.start();
    System.out.println("started " + pg.directory());
    System.out.flush();
    Thread.sleep(120_000);
  }
}
