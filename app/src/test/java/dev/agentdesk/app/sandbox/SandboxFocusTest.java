package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.serve.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window manager at work: two dialogs open on the same spot; a drag on the top one's title bar
 * moves it aside, and from then on a click on either dialog's entry makes that dialog the active
 * window with keyboard focus in the entry, so the text typed next lands there and not in the other.
 */
class SandboxFocusTest {
  @Test
  void aClickOnAnotherWindowMovesKeyboardFocusThere(@TempDir Path dir) throws Exception {
    try (SandboxCli cli = new SandboxCli(dir)) {
      JsonNode sb = cli.start("--no-register", "--app", "zenity --entry --title First --text 'First:'",
          "--app", "zenity --entry --title Second --text 'Second:'");
      JsonNode top = window(sb, "First");
      window(sb, "Second");
      // openbox centres both dialogs on the same spot: drag the top one aside by its title bar
      int tx = top.path("x").asInt() + top.path("w").asInt() / 2;
      int ty = top.path("y").asInt() - 8;
      CliRun drag = aci(sb, "drag", Integer.toString(tx), Integer.toString(ty), Integer.toString(tx - 320),
          Integer.toString(ty), "--duration-ms", "300");
      assertThat(drag.exit()).as(drag.err()).isZero();
      JsonNode firstWin = null;
      JsonNode secondWin = null;
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (System.nanoTime() < deadline) {
        firstWin = window(sb, "First");
        secondWin = window(sb, "Second");
        if (firstWin.path("x").asInt() != secondWin.path("x").asInt()) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(firstWin.path("x").asInt()).as("the dragged dialog moved").isNotEqualTo(secondWin.path("x").asInt());
      // where the entry sits in the active dialog; the other one has the same layout
      JsonNode seen = awaitObserve(sb, o -> o.path("tree_text").asText().contains("text (editable,focused)"));
      String activeDialog = seen.path("tree_text").asText().contains("window: \"First\"") ? "First" : "Second";
      int[] offset = null;
      for (JsonNode e : seen.path("elements")) {
        if (e.path("role").asText().equals("text") && offset == null) {
          JsonNode b = e.path("bbox"); // [x, y, w, h]
          JsonNode win = activeDialog.equals("First") ? firstWin : secondWin;
          offset = new int[] {b.get(0).asInt() + b.get(2).asInt() / 2 - win.path("x").asInt(),
              b.get(1).asInt() + b.get(3).asInt() / 2 - win.path("y").asInt()};
        }
      }
      assertThat(offset).as("an entry in %s", seen.path("tree_text").asText()).isNotNull();
      int[] firstEntry = {firstWin.path("x").asInt() + offset[0], firstWin.path("y").asInt() + offset[1]};
      int[] secondEntry = {secondWin.path("x").asInt() + offset[0], secondWin.path("y").asInt() + offset[1]};

      for (String[] step : new String[][] {{"Second", "into-second"}, {"First", "into-first"}}) {
        int[] at = step[0].equals("First") ? firstEntry : secondEntry;
        click(sb, at[0], at[1]);
        JsonNode now = awaitObserve(sb, o -> o.path("tree_text").asText().contains("window: \"" + step[0] + "\""));
        assertThat(now.path("tree_text").asText()).as("the clicked dialog's entry, still empty")
            .contains("text (editable,focused) Value:\"\"");
        CliRun typed = aci(sb, "type", step[1]);
        assertThat(typed.exit()).as(typed.err()).isZero();
        awaitObserve(sb, o -> o.path("tree_text").asText().contains("window: \"" + step[0] + "\"")
            && o.path("tree_text").asText().contains("Value:\"" + step[1] + "\""));
      }
      // and Second kept only its own text
      click(sb, secondEntry[0], secondEntry[1]);
      JsonNode back = awaitObserve(sb, o -> o.path("tree_text").asText().contains("window: \"Second\""));
      assertThat(back.path("tree_text").asText()).contains("Value:\"into-second\"").doesNotContain("into-first");
    }
  }

  /** The window titled {@code title}, or whose class is it (a shell in xterm may retitle its window). */
  static JsonNode window(JsonNode sb, String title) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    String last = "";
    while (System.nanoTime() < deadline) {
      CliRun w = aci(sb, "--json", "windows");
      last = w.out() + w.err();
      if (w.exit() == 0) {
        for (JsonNode win : Json.MAPPER.readTree(w.out()).path("value")) {
          if (win.path("title").asText().equals(title) || win.path("class").asText().equalsIgnoreCase(title)) {
            return win;
          }
        }
      }
      Thread.sleep(200);
    }
    CliRun inside = aci(sb, "--json", "exec", "--", "sh", "-c", "xprop -root _NET_CLIENT_LIST _NET_SUPPORTING_WM_CHECK; xwininfo -root -tree | grep -v \"has no name\" | head -30; ps -eo pid,stat,args | cut -c1-80");
    throw new AssertionError("no window " + title + "; last listing: " + last + "\ninside: " + inside.out()
        + inside.err() + guestLogs(sb));
  }

  /** What the sandbox's programs wrote (its logs folder), for a failure message: why an app never showed. */
  static String guestLogs(JsonNode sb) {
    StringBuilder out = new StringBuilder();
    java.nio.file.Path logs = java.nio.file.Path.of(sb.path("dir").asText(), "logs");
    try (var files = java.nio.file.Files.list(logs)) {
      for (java.nio.file.Path f : files.sorted().toList()) {
        String text = java.nio.file.Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (!text.isBlank()) {
          out.append("\n--- ").append(f.getFileName()).append(" ---\n")
              .append(text.substring(Math.max(0, text.length() - 2000)));
        }
      }
    } catch (java.io.IOException e) {
      out.append("\n(no logs: ").append(e).append(')');
    }
    return out.toString();
  }

  static JsonNode awaitObserve(JsonNode sb, java.util.function.Predicate<JsonNode> ok) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    String last = "";
    while (System.nanoTime() < deadline) {
      CliRun o = aci(sb, "--json", "observe");
      last = o.out() + o.err();
      if (o.exit() == 0) {
        JsonNode n = Json.MAPPER.readTree(o.out());
        if (ok.test(n)) {
          return n;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the observation never matched; last: " + last);
  }

  static void click(JsonNode sb, int x, int y) {
    CliRun c = aci(sb, "click", Integer.toString(x), Integer.toString(y));
    assertThat(c.exit()).as(c.err()).isZero();
  }

  static CliRun aci(JsonNode sb, String... args) {
    String[] all = new String[args.length + 5];
    all[0] = "aci";
    all[1] = "--url";
    all[2] = sb.path("url").asText();
    all[3] = "--token-file";
    all[4] = sb.path("token_file").asText();
    System.arraycopy(args, 0, all, 5, args.length);
    return CliRun.run(all);
  }
}
