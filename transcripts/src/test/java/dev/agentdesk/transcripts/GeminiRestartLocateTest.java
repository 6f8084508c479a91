package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gemini CLI 0.61 restarts itself after the trust dialog: the new process records into a new chat
 * file with a new id, then writes a summary into the first file. The live link follows the file
 * started last, not the one written last (docs/real-agents.md, "Gemini CLI").
 */
class GeminiRestartLocateTest {
  @TempDir Path tmp;

  private Path home;
  private Path cwd;
  private Map<String, String> env;

  private Path chat(String project, String id, Instant start) throws Exception {
    Path f = home.resolve(".gemini/tmp/" + project + "/chats/session-" + id + ".jsonl");
    Files.createDirectories(f.getParent());
    Files.writeString(f, "{\"sessionId\":\"" + id + "\",\"projectHash\":\"h\",\"startTime\":\"" + start
        + "\",\"kind\":\"main\"}\n{\"id\":\"u1\",\"type\":\"user\",\"content\":[{\"text\":\"hi\"}]}\n");
    return f;
  }

  private void setup() throws Exception {
    home = tmp.resolve("home");
    cwd = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    env = Map.of("HOME", home.toString());
    Files.createDirectories(home.resolve(".gemini/tmp/repo"));
    Files.writeString(home.resolve(".gemini/tmp/repo/.project_root"), cwd.toString());
    Files.createDirectories(home.resolve(".gemini/tmp/repo2"));
    Files.writeString(home.resolve(".gemini/tmp/repo2/.project_root"), cwd + "2");
  }

  @Test
  void theRestartedProcessesFileWinsAndIsTheFirstOnesSuccessor() throws Exception {
    setup();
    Instant spawned = Instant.now().minusSeconds(5);
    LiveTranscripts.Launch launch = new LiveTranscripts.Launch(null, cwd, spawned, Set.of());
    Path first = chat("repo", "a-1", spawned.plusMillis(300));
    LiveTranscripts.Located a = LiveTranscripts.locate(Provider.GEMINI, launch, env).orElseThrow();
    assertThat(a).isEqualTo(new LiveTranscripts.Located(Provider.GEMINI, "a-1", first));
    assertThat(LiveTranscripts.successor(Provider.GEMINI, launch, a, env)).isEmpty();

    Path second = chat("repo", "b-2", spawned.plusMillis(2000));
    chat("repo2", "other-3", spawned.plusMillis(3000)); // another folder's project
    // the new process writes the first chat's summary after starting its own
    Files.writeString(first, "{\"$set\":{\"summary\":\"Done.\"}}\n", java.nio.file.StandardOpenOption.APPEND);
    Files.setLastModifiedTime(first, FileTime.from(Instant.now().plusSeconds(1)));

    LiveTranscripts.Located b = new LiveTranscripts.Located(Provider.GEMINI, "b-2", second);
    assertThat(LiveTranscripts.successor(Provider.GEMINI, launch, a, env)).contains(b);
    assertThat(LiveTranscripts.locate(Provider.GEMINI, launch, env)).contains(b);
    assertThat(LiveTranscripts.successor(Provider.GEMINI, launch, b, env)).isEmpty();
    // linked elsewhere: never taken
    assertThat(LiveTranscripts.successor(Provider.GEMINI, new LiveTranscripts.Launch(null, cwd, spawned, Set.of("b-2")),
        a, env)).isEmpty();
  }

  @Test
  void aChatStartedBeforeTheLaunchIsNoSuccessorOfAResumedOne() throws Exception {
    setup();
    Instant resumedAt = Instant.now();
    // the resumed session's own file, started long ago and appended to now
    Path resumed = chat("repo", "b-2", resumedAt.minusSeconds(600));
    Path older = chat("repo", "a-1", resumedAt.minusSeconds(900));
    Files.setLastModifiedTime(older, FileTime.from(resumedAt.minusSeconds(800)));
    LiveTranscripts.Launch launch = new LiveTranscripts.Launch(null, cwd, resumedAt, Set.of("b-2"));
    assertThat(LiveTranscripts.successor(Provider.GEMINI, launch,
        new LiveTranscripts.Located(Provider.GEMINI, "b-2", resumed), env)).isEmpty();
  }
}
