package dev.agentdesk.agents;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A real git repository in a temp folder, with an identity of its own, for tests. */
final class TestRepo {
  final Path top;
  private final Git git = new Git();

  private TestRepo(Path top) {
    this.top = top;
  }

  /** {@code parent/name}: a repository on branch main with one commit holding README.md. */
  static TestRepo create(Path parent, String name) throws IOException {
    Path dir = Files.createDirectories(parent.resolve(name));
    TestRepo r = new TestRepo(dir.toRealPath());
    r.git("init", "-q", "-b", "main");
    r.git("config", "user.name", "Test User");
    r.git("config", "user.email", "test@example.com");
    r.git("config", "commit.gpgsign", "false");
    r.write("README.md", "hello\n");
    r.commit("initial");
    return r;
  }

  String git(String... args) {
    return git.check(top, args);
  }

  String gitIn(Path dir, String... args) {
    return git.check(dir, args);
  }

  void write(String path, String text) throws IOException {
    Path p = top.resolve(path);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  String read(String path) throws IOException {
    return Files.readString(top.resolve(path));
  }

  String commit(String message) {
    git("add", "-A");
    git("commit", "-q", "-m", message);
    return head();
  }

  String head() {
    return git("rev-parse", "HEAD").strip();
  }

  /** Branch names, one per line. */
  String branches() {
    return git("branch", "--format=%(refname:short)");
  }

  String status() {
    return git("status", "--porcelain");
  }
}
