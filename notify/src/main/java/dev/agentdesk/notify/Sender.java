package dev.agentdesk.notify;

/** One delivery target (the browser sink, the desktop bus, one webhook). Called on the delivery thread only. */
interface Sender {
  /** For logs and counters: "webhook https://ntfy.sh/x", "desktop". */
  String name();

  void send(Notification n) throws Failure;

  /** A failed delivery: {@code permanent} when trying again cannot help (a 4xx other than 408/429). */
  final class Failure extends Exception {
    final boolean permanent;

    Failure(String message, boolean permanent) {
      super(message);
      this.permanent = permanent;
    }
  }
}
