package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ExecResult;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbExtension;
import java.lang.reflect.Method;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ACI runtime's exposure: no TCP client gets anywhere without the token, the token is
 * compared in constant time, exec never goes through a shell unless asked, and a timed-out exec
 * leaves no process of its group behind. (The server's side is {@link ServeExposureTest}.)
 */
@ExtendWith(XvfbExtension.class)
class ExposureTest {
  private static final String TOKEN = "exposure-" + Long.toHexString(System.nanoTime());
  private static AciRuntime runtime;

  @BeforeAll
  static void start(XDisplay x) {
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, true, List.of(), x.name(),
        SessionLimits.defaults(), "reliability"));
  }

  @AfterAll
  static void stop() {
    runtime.close();
  }

  private static AciClient connect(String token) {
    return AciClient.connect(URI.create("ws://127.0.0.1:" + runtime.port()),
        AciClientOptions.defaults().withToken(token).withConnectTimeout(Duration.ofSeconds(5)));
  }

  @Test
  void runtimeRefusesEveryTcpClientWithoutTheRightToken() {
    for (String wrong : Arrays.asList(null, "", "nope", TOKEN + "x", TOKEN.substring(1), TOKEN.toUpperCase())) {
      assertThatThrownBy(() -> connect(wrong)).as("token %s", wrong)
          .isInstanceOf(AciClientException.class).hasMessageContaining("token");
    }
    try (AciClient ok = connect(TOKEN)) {
      assertThat(ok.ping()).isPositive();
    }
    Figures.of("Exposure: ACI runtime token").write("6 wrong/missing tokens + 1 right",
        "every wrong or missing token refused with a reason, connection closed; the right one admitted");
  }

  /**
   * Constant time: the runtime hashes the presented token and compares fixed-length digests with
   * {@link java.security.MessageDigest#isEqual}. Measured here: a token wrong in its first byte and
   * one wrong in its last byte take the same time (median ratio of ABBA-interleaved batch pairs within a
   * factor of 1.5: a shared 2-core machine is noisy, and the digest compare has no data-dependent exit).
   */
  @Test
  void tokenComparisonTakesTheSameTimeWhereverTheTokenDiffers() throws Exception {
    Object host = runtime.host();
    Method matches = host.getClass().getDeclaredMethod("tokenMatches", String.class);
    matches.setAccessible(true);
    Predicate<String> check = token -> {
      try {
        return (Boolean) matches.invoke(host, token);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    };
    String firstWrong = (char) (TOKEN.charAt(0) + 1) + TOKEN.substring(1);
    String lastWrong = TOKEN.substring(0, TOKEN.length() - 1) + (char) (TOKEN.charAt(TOKEN.length() - 1) + 1);
    assertThat(check.test(TOKEN)).isTrue();
    assertThat(check.test(firstWrong)).isFalse();
    double ratio = ConstantTime.medianRatio(check, firstWrong, lastWrong);
    assertThat(ratio).as("median time first-byte-wrong / last-byte-wrong").isBetween(0.67, 1.5);
    Figures.of("Exposure: constant-time token compare").put("median_ratio", Math.round(ratio * 1000) / 1000.0)
        .write(ConstantTime.describe(), "first-byte vs last-byte mismatch take the same time");
  }

  @Test
  void execArgvNeverPassesThroughAShell() {
    try (AciClient c = connect(TOKEN)) {
      ExecResult r = c.exec(List.of("/bin/echo", "$HOME", ";", "id", "`whoami`", "|", "cat", "&&", "*"));
      assertThat(r.exitCode()).isEqualTo(0L);
      assertThat(r.stdout()).isEqualTo("$HOME ; id `whoami` | cat && *\n");
      ExecResult viaShell = c.exec(Action.execShell("echo \"$((6 * 7))\""));
      assertThat(viaShell.stdout()).isEqualTo("42\n");
    }
    Figures.of("Exposure: exec without a shell").write("argv with shell metacharacters",
        "printed literally; only shell=… is interpreted by /bin/sh");
  }

  @Test
  void timedOutExecLeavesNoProcessBehind() throws Exception {
    String marker = "300." + (System.nanoTime() % 100_000);
    try (AciClient c = connect(TOKEN)) {
      // A process group with a background grandchild: the timeout must take all of it down.
      Action exec = Action.builder(Verb.EXEC)
          .argv(List.of("/bin/sh", "-c", "sleep " + marker + " & sleep " + marker + "; wait"))
          .timeoutMs(500L).build();
      ExecResult r = c.exec(exec);
      assertThat(r.timedOut()).isTrue();
      assertThat(r.exitCode()).isNull();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    int left;
    do {
      Process p = new ProcessBuilder("pgrep", "-f", "sleep " + marker).start();
      left = new String(p.getInputStream().readAllBytes()).isBlank() ? 0 : 1;
      p.waitFor();
    } while (left > 0 && System.nanoTime() < deadline);
    assertThat(left).as("processes of the timed-out exec still alive").isZero();
    Figures.of("Exposure: exec timeout").write("sh + background grandchild, timeout 500 ms",
        "timed_out=true, exit_code null, no process of the group left");
  }
}
