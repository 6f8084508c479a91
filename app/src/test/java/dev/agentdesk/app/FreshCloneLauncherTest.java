package dev.agentdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command on a fresh machine: a clone of this repository, run through
 * {@code ./agentdesk} with a Maven local repository that holds every third-party artifact but
 * nothing of {@code dev.agentdesk}, must build the jar and run it. A launcher whose build needs
 * an artifact of this project from the local repository (as the test-jar once was) fails here.
 */
class FreshCloneLauncherTest {
  private static final Pattern DASHBOARD = Pattern.compile("dashboard on (http://\\S+)");
  private static final Duration BUILD_LIMIT = Duration.ofMinutes(6);

  @Test
  void aFreshCloneBuildsWithoutProjectArtifactsAndServes(@TempDir Path tmp) throws Exception {
    Path root = Path.of(System.getProperty("agentdesk.repo.root", "..")).toAbsolutePath().normalize();
    assertThat(root.resolve(".git")).as("the launcher test clones the checkout; it must be a git checkout")
        .exists();
    Path clone = tmp.resolve("clone");
    run(tmp, Map.of(), Duration.ofMinutes(2), "git", "clone", "-q", root.toString(), clone.toString());

    Path repo = thirdPartyOnlyCopyOfLocalRepository(tmp.resolve("m2"));
    Map<String, String> env = Map.of("MAVEN_OPTS", "-Dmaven.repo.local=" + repo);

    long start = System.nanoTime();
    String version = run(clone, env, BUILD_LIMIT, "./agentdesk", "--version");
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("fresh-clone first build + --version: %.1f s%n", seconds);
    Files.writeString(Path.of("target", "fresh-clone-build.txt"), String.format("%.1f s%n", seconds));

    assertThat(version).contains("agentdesk " + System.getProperty("agentdesk.version"));
    assertThat(clone.resolve("app/target/agentdesk.jar")).isRegularFile();
    assertThat(repo.resolve("dev/agentdesk")).as("the launcher installs nothing into the local repository")
        .doesNotExist();

    Path home = Files.createDirectories(tmp.resolve("home"));
    ProcessBuilder pb = new ProcessBuilder("./agentdesk", "serve", "--port", "0").directory(clone.toFile());
    pb.environment().putAll(env);
    pb.environment().put("HOME", home.toString());
    pb.environment().remove("XDG_DATA_HOME");
    pb.redirectError(tmp.resolve("serve-stderr.txt").toFile());
    Process serve = pb.start();
    try {
      String dashboard = dashboardUrl(serve);
      assertThat(dashboard).as("serve's banner; stderr: %s", Files.readString(tmp.resolve("serve-stderr.txt")))
          .isNotNull();
      HttpResponse<String> health = get(dashboard, "/api/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"status\":\"ok\"");
      // The browser terminal came from the npm registry into the jar: served, not fetched elsewhere.
      HttpResponse<String> xterm = get(dashboard, "/vendor/xterm.js");
      assertThat(xterm.statusCode()).isEqualTo(200);
      assertThat(xterm.body()).contains("export{").contains("as Terminal");
    } finally {
      serve.destroy();
      assertThat(serve.waitFor(20, TimeUnit.SECONDS)).as("serve stops on SIGTERM").isTrue();
    }
  }

  /**
   * A hard-linked copy of the local repository this build uses, without {@code dev/agentdesk}: what
   * a machine that has fetched the dependencies but never built agentdesk holds.
   */
  private static Path thirdPartyOnlyCopyOfLocalRepository(Path copy) throws Exception {
    Path local = Path.of(System.getProperty("agentdesk.maven.repo.local",
        System.getProperty("user.home") + "/.m2/repository"));
    assertThat(local).isDirectory();
    run(copy.getParent(), Map.of(), Duration.ofMinutes(2), "cp", "-al", local.toString(), copy.toString());
    Path ours = copy.resolve("dev/agentdesk");
    if (Files.exists(ours)) {
      try (Stream<Path> walk = Files.walk(ours)) {
        for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
          Files.delete(p);
        }
      }
    }
    return copy;
  }

  /** Reads serve's stdout up to its "stop with" line; returns the dashboard URL it printed. */
  private static String dashboardUrl(Process serve) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
    String url = null;
    for (String line; (line = out.readLine()) != null; ) {
      Matcher m = DASHBOARD.matcher(line);
      if (m.find()) {
        url = m.group(1);
      }
      if (line.contains("stop with")) {
        break;
      }
    }
    return url;
  }

  /** GET {@code path}, with the token the banner's URL carries, if it carries one. */
  private static HttpResponse<String> get(String dashboard, String path) throws Exception {
    URI uri = URI.create(dashboard);
    HttpRequest.Builder req = HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(10));
    String query = uri.getRawQuery();
    if (query != null && query.startsWith("token=")) {
      req.header("Authorization", "Bearer " + query.substring("token=".length()));
    }
    return HttpClient.newHttpClient().send(req.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Runs a command to its end and returns its stdout + stderr; fails with that output on a non-zero exit. */
  private static String run(Path dir, Map<String, String> env, Duration limit, String... cmd) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(List.of(cmd)).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    // Drained on another thread so a chatty build cannot fill the pipe and stall.
    StringBuilder output = new StringBuilder();
    Thread drain = new Thread(() -> {
      try {
        output.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException ignored) {
        // the process was killed; what was read is reported
      }
    });
    drain.start();
    boolean ended = p.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly();
    }
    drain.join(5_000);
    assertThat(ended).as("%s ended within %s; output:%n%s", String.join(" ", cmd), limit, output).isTrue();
    assertThat(p.exitValue()).as("exit status of %s; output:%n%s", String.join(" ", cmd), output).isZero();
    return output.toString();
  }
}
