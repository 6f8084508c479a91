package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.testkit.XvfbServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each claim of the threat model (docs/sandbox.md), attacked from inside through ACI exec, with
 * the same attack run on the host first so that a test passing cannot mean the attack was broken:
 * a file in the real $HOME, the host's X display (an Xvfb this test starts, whose abstract socket
 * is what a shared network namespace would expose), a host loopback listener, the SSH agent
 * socket, the host's file system for writing. With {@code --network} the listener is reachable
 * and the display still is not.
 */
class SandboxIsolationTest {
  static XvfbServer hostDisplay;
  static ServerSocket listener;
  static final LinkedBlockingQueue<Socket> accepted = new LinkedBlockingQueue<>();
  static Path secret;
  static final String SECRET = "agentdesk-isolation-secret-" + ProcessHandle.current().pid();

  @BeforeAll
  static void hostSide() throws Exception {
    hostDisplay = XvfbServer.start(320, 240);
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      try {
        while (true) {
          accepted.add(listener.accept());
        }
      } catch (java.io.IOException closed) {
        // the test is over
      }
    }, "host-listener");
    t.setDaemon(true);
    t.start();
    secret = Path.of(System.getProperty("user.home"), ".agentdesk-isolation-test-" + ProcessHandle.current().pid());
    Files.writeString(secret, SECRET);
  }

  @AfterAll
  static void cleanUp() throws Exception {
    Files.deleteIfExists(secret);
    listener.close();
    hostDisplay.close();
  }

  @Test
  void byDefaultTheHostsFilesDisplayNetworkAndAgentAreOutOfReach(@TempDir Path dir) throws Exception {
    Path agentSocket = dir.resolve("ssh-agent.sock");
    try (var agent = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      agent.bind(java.net.UnixDomainSocketAddress.of(agentSocket));
      try (SandboxCli cli = new SandboxCli(dir, Map.of("SSH_AUTH_SOCK", agentSocket.toString()))) {
        JsonNode sb = cli.start("--no-register");
        assertThat(sb.path("network").asBoolean()).isFalse();

        assertFileUnreadable(sb);
        assertHostDisplayUnreachable(sb);
        assertOwnDisplayWorks(sb);

        // the same connect that works on the host fails inside: no network at all
        assertThat(connectOnHost()).isTrue();
        CliRun tcp = SandboxCli.exec(sb, "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + listener.getLocalPort());
        assertThat(tcp.exit()).as("connect to the host's loopback listener from inside").isNotZero();
        assertThat(accepted.poll(500, TimeUnit.MILLISECONDS)).as("a connection from the sandbox").isNull();

        assertThat(SandboxCli.exec(sb, "id", "-u").out().strip()).as("the uid inside, whoever started it")
            .isEqualTo("1000");
        CliRun env = SandboxCli.exec(sb, "env");
        assertThat(env.exit()).isZero();
        assertThat(env.out()).doesNotContain("SSH_AUTH_SOCK").contains("HOME=/home/sandbox")
            .contains("DBUS_SESSION_BUS_ADDRESS=unix:path=/tmp/.agentdesk/bus");
        assertThat(SandboxCli.exec(sb, "test", "-e", agentSocket.toString()).exit()).as("the agent socket's path")
            .isNotZero();
        assertThat(SandboxCli.exec(sb, "ls", "/run").out().strip()).isEqualTo("agentdesk");

        CliRun write = SandboxCli.exec(sb, "touch", "/usr/agentdesk-probe");
        assertThat(write.exit()).as("writing into /usr").isNotZero();
        assertThat(Path.of("/usr/agentdesk-probe")).doesNotExist();
        // the private home and /tmp are writable and gone with the sandbox
        assertThat(SandboxCli.exec(sb, "sh", "-c", "echo x > $HOME/f && echo y > /tmp/g && cat $HOME/f /tmp/g").out())
            .isEqualTo("x\ny\n");
      }
    }
  }

  @Test
  void withNetworkTheHostsLoopbackIsReachableButItsDisplayIsNot(@TempDir Path dir) throws Exception {
    try (SandboxCli cli = new SandboxCli(dir)) {
      JsonNode sb = cli.start("--no-register", "--network");
      assertThat(sb.path("network").asBoolean()).isTrue();
      accepted.clear();
      CliRun tcp = SandboxCli.exec(sb, "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + listener.getLocalPort()
          + " && echo connected");
      assertThat(tcp.out()).as(tcp.err()).contains("connected");
      assertThat(accepted.poll(10, TimeUnit.SECONDS)).as("the sandbox's connection, accepted on the host").isNotNull();

      assertHostDisplayUnreachable(sb);
      assertOwnDisplayWorks(sb);
      assertFileUnreadable(sb);
    }
  }

  @Test
  void aSymlinkPlantedInTheDoorFolderDoesNotLeadTheSupervisorToAHostSocket(@TempDir Path dir) throws Exception {
    Path hostSocket = dir.resolve("host.sock");
    try (var host = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX);
        SandboxCli cli = new SandboxCli(dir)) {
      host.bind(java.net.UnixDomainSocketAddress.of(hostSocket));
      host.configureBlocking(false);
      JsonNode sb = cli.start("--no-register");
      // inside, the door socket is replaced by a link to a socket that only the host can see
      CliRun plant = SandboxCli.exec(sb, "ln", "-sfn", hostSocket.toString(), "/run/agentdesk/door/aci.sock");
      assertThat(plant.exit()).as(plant.err()).isZero();
      Path door = Path.of(sb.path("dir").asText(), "door", "aci.sock");
      assertThat(Files.isSymbolicLink(door)).isTrue();
      CliRun next = CliRun.run("aci", "--url", sb.path("url").asText(), "--token-file",
          sb.path("token_file").asText(), "info");
      assertThat(next.exit()).as("a new ACI connection through the tampered door").isNotZero();
      assertThat(host.accept()).as("a connection to the host socket the link names").isNull();
    }
  }

  static void assertFileUnreadable(JsonNode sb) {
    assertThat(Files.isReadable(secret)).isTrue();
    CliRun cat = SandboxCli.exec(sb, "cat", secret.toString());
    assertThat(cat.exit()).as("cat of a file in the real $HOME").isNotZero();
    assertThat(cat.out()).doesNotContain(SECRET);
    CliRun find = SandboxCli.exec(sb, "sh", "-c", "grep -rs " + SECRET + " / --exclude-dir=proc --exclude-dir=sys"
        + " --exclude-dir=dev --exclude-dir=usr; echo scanned");
    assertThat(find.out()).doesNotContain(secret.getFileName().toString()).contains("scanned");
  }

  static void assertHostDisplayUnreachable(JsonNode sb) throws Exception {
    String display = hostDisplay.display().name();
    Process host = new ProcessBuilder("xdpyinfo", "-display", display).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertThat(host.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(host.exitValue()).as("xdpyinfo on the host reaches " + display).isZero();
    CliRun inside = SandboxCli.exec(sb, "xdpyinfo", "-display", display);
    assertThat(inside.exit()).as("xdpyinfo -display %s from inside: %s", display, inside.out()).isNotZero();
    assertThat(inside.err() + inside.out()).contains("unable to open display");
  }

  static void assertOwnDisplayWorks(JsonNode sb) {
    CliRun own = SandboxCli.exec(sb, "xdpyinfo");
    assertThat(own.exit()).as(own.err()).isZero();
    assertThat(own.out()).contains("dimensions:    1280x800 pixels");
  }

  static boolean connectOnHost() throws Exception {
    accepted.clear();
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
      Socket in = accepted.poll(5, TimeUnit.SECONDS);
      if (in != null) {
        in.close();
      }
      return in != null;
    }
  }
}
