package dev.agentdesk.app.serve.history;

import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** Lays out shared-corpus Claude Code files the way Claude Code stores them, in a temp folder. */
public final class HistoryFixtures {
  private HistoryFixtures() {}

  public static final String SMALL_SESSION = "ses_stage0_small";
  public static final String PARENT_SESSION = "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f";

  /** Copies two corpus sessions (one with a subagent) under {@code claudeProjects/<project>/}. */
  public static void claudeCorpus(Path claudeProjects) {
    Path corpus = SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents/claude");
    try {
      Path proj = Files.createDirectories(claudeProjects.resolve("-tmp-stage0"));
      Files.copy(corpus.resolve("small.jsonl"), proj.resolve(SMALL_SESSION + ".jsonl"), StandardCopyOption.REPLACE_EXISTING);
      Path sub = corpus.resolve("subagent");
      try (Stream<Path> files = Files.walk(sub)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Path target = proj.resolve(sub.relativize(f).toString());
          if (Files.isDirectory(f)) {
            Files.createDirectories(target);
          } else {
            Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One Claude Code assistant line with token usage, in the on-disk format. */
  public static String assistantLine(String session, String uuid, String parent, String model, String text,
      String timestamp, int input, int output) {
    return "{\"parentUuid\":\"" + parent + "\",\"isSidechain\":false,\"userType\":\"external\",\"cwd\":\"/tmp/live\","
        + "\"sessionId\":\"" + session + "\",\"version\":\"2.1.80\",\"gitBranch\":\"main\",\"type\":\"assistant\","
        + "\"requestId\":\"req_" + uuid + "\",\"message\":{\"id\":\"msg_" + uuid + "\",\"type\":\"message\",\"role\":\"assistant\","
        + "\"model\":\"" + model + "\",\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],"
        + "\"usage\":{\"input_tokens\":" + input + ",\"output_tokens\":" + output
        + ",\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":0}},\"uuid\":\"" + uuid
        + "\",\"timestamp\":\"" + timestamp + "\"}\n";
  }

  /** One Claude Code user line in the on-disk format. */
  public static String userLine(String session, String uuid, String parent, String text, String timestamp) {
    return "{\"parentUuid\":" + (parent == null ? "null" : "\"" + parent + "\"")
        + ",\"isSidechain\":false,\"userType\":\"external\",\"cwd\":\"/tmp/live\",\"sessionId\":\"" + session
        + "\",\"version\":\"2.1.80\",\"gitBranch\":\"main\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\""
        + text + "\"},\"uuid\":\"" + uuid + "\",\"timestamp\":\"" + timestamp + "\"}\n";
  }
}
