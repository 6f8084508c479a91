package dev.agentdesk.terminal.session;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Collects a session's output and events; tests wait on it for what a real process prints. */
final class Recorder implements SessionListener {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final List<SessionEvent> events = new ArrayList<>();

  @Override
  public synchronized void onOutput(byte[] chunk) {
    out.writeBytes(chunk);
    notifyAll();
  }

  @Override
  public synchronized void onEvent(SessionEvent event) {
    events.add(event);
    notifyAll();
  }

  synchronized String text() {
    return out.toString(StandardCharsets.UTF_8);
  }

  synchronized List<SessionEvent> events() {
    return List.copyOf(events);
  }

  /** Waits until the output contains {@code needle}; fails with the output so far after the timeout. */
  synchronized String awaitOutput(String needle) throws InterruptedException {
    return awaitOutput(needle, Duration.ofSeconds(10));
  }

  synchronized String awaitOutput(String needle, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!text().contains(needle)) {
      long left = (end - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        throw new AssertionError("no '" + needle + "' in output within " + timeout + ":\n" + text());
      }
      wait(left);
    }
    return text();
  }

  /** Waits until {@code needle} appears in the output after offset {@code from}; returns that part. */
  synchronized String awaitOutput(int from, String needle) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (text().indexOf(needle, from) < 0) {
      long left = (end - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        throw new AssertionError("no '" + needle + "' in output after offset " + from + ":\n" + text().substring(from));
      }
      wait(left);
    }
    return text().substring(from);
  }

  /** Waits for an event matching {@code p} and returns it. */
  synchronized SessionEvent awaitEvent(Predicate<SessionEvent> p, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (SessionEvent e : events) {
        if (p.test(e)) {
          return e;
        }
      }
      long left = (end - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        throw new AssertionError("no matching event within " + timeout + "; events: " + events);
      }
      wait(left);
    }
  }
}
