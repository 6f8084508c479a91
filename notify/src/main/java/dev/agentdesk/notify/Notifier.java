package dev.agentdesk.notify;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Notifications for every supervised session: {@link #observe} is handed each new state (on the
 * session's own thread; it only compares with the last state and queues), the detector finds the
 * state changes worth telling (see {@link ChangeDetector}), and each goes to the channels the
 * settings route it to: the browser sink, the desktop bus, the webhooks. Delivery is
 * asynchronous, bounded and retried ({@link Delivery}). Thread-safe.
 */
public final class Notifier implements AutoCloseable {
  /** Recent notifications kept for the API. */
  static final int RECENT = 100;

  /**
   * How notifications are delivered.
   *
   * @param webhooks every {@code --webhook}
   * @param desktopBus the session bus address ({@code DBUS_SESSION_BUS_ADDRESS}), or null for no desktop
   * @param settingsFile where settings are read from and saved to; null keeps them in memory only
   * @param baseUrl the dashboard's address ({@code http://127.0.0.1:7420/}), asked when a notification is made; may give null
   * @param debounce how soon after a state fell a rise in the same turn counts as flapping
   * @param queueCapacity most deliveries pending at once
   * @param maxAttempts tries per delivery
   * @param firstRetry delay before the second try (doubling after)
   */
  public record Options(List<Webhook> webhooks, String desktopBus, Path settingsFile, Supplier<String> baseUrl,
      Duration debounce, int queueCapacity, int maxAttempts, Duration firstRetry) {
    public static final Duration DEBOUNCE = Duration.ofSeconds(5);

    public Options {
      webhooks = List.copyOf(webhooks);
      Objects.requireNonNull(baseUrl, "baseUrl");
      Objects.requireNonNull(debounce, "debounce");
    }

    /** No webhooks, no desktop, settings in memory, 5 s debounce, 256 pending, 4 tries from 1 s. */
    public static Options defaults() {
      return new Options(List.of(), null, null, () -> null, DEBOUNCE, 256, 4, Duration.ofSeconds(1));
    }

    public Options withWebhooks(List<Webhook> w) {
      return new Options(w, desktopBus, settingsFile, baseUrl, debounce, queueCapacity, maxAttempts, firstRetry);
    }

    public Options withDesktopBus(String address) {
      return new Options(webhooks, address, settingsFile, baseUrl, debounce, queueCapacity, maxAttempts, firstRetry);
    }

    public Options withSettingsFile(Path file) {
      return new Options(webhooks, desktopBus, file, baseUrl, debounce, queueCapacity, maxAttempts, firstRetry);
    }

    public Options withBaseUrl(Supplier<String> url) {
      return new Options(webhooks, desktopBus, settingsFile, url, debounce, queueCapacity, maxAttempts, firstRetry);
    }

    public Options withRetries(int attempts, Duration first) {
      return new Options(webhooks, desktopBus, settingsFile, baseUrl, debounce, queueCapacity, attempts, first);
    }

    public Options withQueueCapacity(int capacity) {
      return new Options(webhooks, desktopBus, settingsFile, baseUrl, debounce, capacity, maxAttempts, firstRetry);
    }
  }

  private final Options options;
  private final Clock clock;
  private final Delivery delivery;
  private final Sender browser;
  private final DesktopSender desktop;
  private final List<Sender> webhooks = new ArrayList<>();
  private final ChangeDetector detector;
  /** Guarded by {@code this}: the detector and the recent list. */
  private final ArrayDeque<Notification> recent = new ArrayDeque<>();
  private volatile NotifySettings settings;

  private Notifier(Options options, Consumer<Notification> browserSink, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.settings = options.settingsFile() == null ? NotifySettings.defaults() : NotifySettings.load(options.settingsFile());
    this.delivery = new Delivery(options.queueCapacity(), options.maxAttempts(), options.firstRetry());
    this.detector = new ChangeDetector(options.debounce().toMillis());
    this.browser = new Sender() {
      @Override
      public String name() {
        return "browser";
      }

      @Override
      public void send(Notification n) {
        browserSink.accept(n);
      }
    };
    this.desktop = options.desktopBus() == null || options.desktopBus().isBlank() ? null : new DesktopSender(options.desktopBus());
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NORMAL).build();
    for (Webhook w : options.webhooks()) {
      webhooks.add(new WebhookSender(w, http));
    }
  }

  /**
   * Starts delivering. {@code browserSink} gets each notification routed to the browser, on the
   * delivery thread (the server publishes it to the dashboards).
   *
   * @throws NotifyException when the settings file is unreadable or invalid
   */
  public static Notifier start(Options options, Consumer<Notification> browserSink) {
    return new Notifier(options, browserSink, Clock.systemUTC());
  }

  /** A session's new state; cheap and non-blocking, safe on a PTY reader thread. */
  public void observe(SessionView v) {
    List<ChangeDetector.Change> changes;
    synchronized (this) {
      changes = detector.observe(v, clock.millis());
    }
    for (ChangeDetector.Change c : changes) {
      publish(new Notification(c.kind(), v.session(), v.agent(), title(c.kind(), v.name(), c.text()), text(c), url(v.page()),
          clock.instant()));
    }
  }

  /** Sends a notification made elsewhere (an auto-resume) to the channels its event is routed to. */
  public void publish(Notification n) {
    synchronized (this) {
      recent.addLast(n);
      if (recent.size() > RECENT) {
        recent.removeFirst();
      }
    }
    NotifySettings s = settings;
    if (s.routes(n.event(), Channel.BROWSER)) {
      delivery.submit(browser, n);
    }
    if (desktop != null && s.routes(n.event(), Channel.DESKTOP)) {
      delivery.submit(desktop, n);
    }
    if (s.routes(n.event(), Channel.WEBHOOK)) {
      for (Sender w : webhooks) {
        delivery.submit(w, n);
      }
    }
  }

  /** The dashboard page's full URL, or null when the server's address is not known. */
  public String url(String page) {
    String base = options.baseUrl().get();
    if (base == null) {
      return null;
    }
    return (base.endsWith("/") ? base : base + "/") + page;
  }

  static String title(EventKind kind, String name, String text) {
    return switch (kind) {
      case AWAITING_INPUT -> name + " needs you";
      case RATE_LIMIT -> name + " hit a limit";
      case API_ERROR -> name + ": API error";
      case PR_OPENED -> name + " opened a pull request";
      case TURN_FINISHED -> name + " finished its turn";
      case EXIT_ERROR -> name + " exited with " + text;
      case AUTO_RESUMED -> name + " resumed after its limit reset";
    };
  }

  private static String text(ChangeDetector.Change c) {
    return c.kind() == EventKind.EXIT_ERROR ? "" : c.text();
  }

  /** Drops what is remembered about a session that is gone. */
  public synchronized void forget(String session) {
    detector.forget(session);
  }

  public NotifySettings settings() {
    return settings;
  }

  /** Replaces the settings, saving them to the settings file first when there is one. */
  public synchronized NotifySettings updateSettings(NotifySettings s) {
    Objects.requireNonNull(s, "settings");
    if (options.settingsFile() != null) {
      s.save(options.settingsFile());
    }
    settings = s;
    return s;
  }

  public Path settingsFile() {
    return options.settingsFile();
  }

  public DeliveryStats stats() {
    return delivery.stats();
  }

  /** The last {@value #RECENT} notifications, oldest first. */
  public synchronized List<Notification> recent() {
    return List.copyOf(recent);
  }

  /** Whether desktop notifications are on (a session bus was given). */
  public boolean desktopEnabled() {
    return desktop != null;
  }

  public List<Webhook> webhooks() {
    return options.webhooks();
  }

  @Override
  public void close() {
    delivery.close();
    if (desktop != null) {
      desktop.close();
    }
  }
}
