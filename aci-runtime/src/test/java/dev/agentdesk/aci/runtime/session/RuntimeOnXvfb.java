package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.testkit.XvfbExtension;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real {@link AciRuntime} on the test class's Xvfb, started before the class and closed after
 * it. Register it as a static field after {@code @ExtendWith(XvfbExtension.class)}:
 * {@code @RegisterExtension static final RuntimeOnXvfb RT = RuntimeOnXvfb.withToken(TOKEN);}
 */
final class RuntimeOnXvfb implements BeforeAllCallback, AfterAllCallback {
  private final Function<String, AciRuntime.Options> options;
  private AciRuntime runtime;
  private String display;

  private RuntimeOnXvfb(Function<String, AciRuntime.Options> options) {
    this.options = options;
  }

  /** Loopback, any free port, {@code token}, exec refused, default limits. */
  static RuntimeOnXvfb withToken(String token) {
    return withToken(token, false);
  }

  /** Loopback, any free port, {@code token}, exec allowed or not, default limits. */
  static RuntimeOnXvfb withToken(String token, boolean allowExec) {
    return new RuntimeOnXvfb(display -> new AciRuntime.Options("127.0.0.1", 0, token, allowExec, List.of(), display,
        SessionLimits.defaults(), "test"));
  }

  /** The options built for the class's display name. */
  static RuntimeOnXvfb with(Function<String, AciRuntime.Options> options) {
    return new RuntimeOnXvfb(options);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    display = XvfbExtension.display(context).name();
    runtime = AciRuntime.start(options.apply(display));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (runtime != null) {
      runtime.close();
    }
  }

  AciRuntime runtime() {
    return runtime;
  }

  String display() {
    return display;
  }
}
