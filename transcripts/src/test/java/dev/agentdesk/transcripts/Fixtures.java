package dev.agentdesk.transcripts;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The project's own real-format fixtures (src/test/resources/fixtures). */
final class Fixtures {
  private Fixtures() {}

  static Path root() {
    try {
      return Path.of(Fixtures.class.getResource("/fixtures").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Path claudeProject() {
    return root().resolve("claude/projects/-home-dev-demo");
  }

  static Path claudeMain() {
    return claudeProject().resolve("5f0c1a2e-0000-4000-8000-000000000001.jsonl");
  }

  static Path claudeFork() {
    return claudeProject().resolve("5f0c1a2e-0000-4000-8000-000000000002.jsonl");
  }

  static Path claudeLive() {
    return claudeProject().resolve("5f0c1a2e-0000-4000-8000-000000000003.jsonl");
  }

  static Path claudeSubagent() {
    return claudeProject().resolve("5f0c1a2e-0000-4000-8000-000000000001/subagents/agent-b7e1.jsonl");
  }

  /** A Claude Code 2.1.328-shaped session: API errors, queued prompts, permission modes, cost-state. */
  static Path claude21() {
    return root().resolve("claude-2.1/projects/-home-dev-shop/7d3c1f20-0000-4000-8000-000000000328.jsonl");
  }

  static Path codexDay() {
    return root().resolve("codex/sessions/2026/01/06");
  }

  static Path codexParent() {
    return codexDay().resolve("rollout-2026-01-06T09-00-00-019b9288-d680-7000-8000-000000000001.jsonl");
  }

  static Path codexFork() {
    return codexDay().resolve("rollout-2026-01-06T10-00-00-019b92bf-c500-7000-8000-000000000002.jsonl");
  }
}
