package dev.agentdesk.app.mcpinstall;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One entry in a JSON configuration file ({@code mcpServers.agentdesk}): read, set, removed. Every
 * other key keeps its value and order; the file is written back the way Node's
 * {@code JSON.stringify(v, null, 2)} writes (as the agents themselves do), through a temp file moved
 * into place with the old file's mode.
 */
final class JsonConfig {
  static final ObjectMapper JSON = new ObjectMapper();
  private final Path file;
  private final List<String> parents;
  private final String name;

  /** The entry {@code name} inside the objects {@code parents} (e.g. [mcpServers]) of {@code file}. */
  JsonConfig(Path file, List<String> parents, String name) {
    this.file = file;
    this.parents = parents;
    this.name = name;
  }

  Path file() {
    return file;
  }

  String key() {
    return String.join(".", parents) + "." + name;
  }

  /** The entry as it is now. */
  Optional<JsonNode> current() {
    ObjectNode root = read();
    JsonNode n = root;
    for (String p : parents) {
      n = n.path(p);
    }
    JsonNode e = n.path(name);
    return e.isMissingNode() || e.isNull() ? Optional.empty() : Optional.of(e);
  }

  /** Sets the entry; {@code unchanged} when it already equals {@code value}. */
  String put(JsonNode value) {
    Optional<JsonNode> now = current();
    if (now.isPresent() && now.get().equals(value)) {
      return "unchanged";
    }
    ObjectNode root = read();
    ObjectNode n = root;
    for (String p : parents) {
      JsonNode child = n.get(p);
      if (child == null || child.isNull()) {
        n = n.putObject(p);
      } else if (child instanceof ObjectNode o) {
        n = o;
      } else {
        throw new UserError(file + ": '" + p + "' is not a JSON object; fix it by hand, then run this again");
      }
    }
    n.set(name, value);
    write(root);
    return now.isPresent() ? "updated" : "added";
  }

  /**
   * Removes the entry; parents it leaves empty go too, and a file left as {@code {}} is deleted, so
   * a remove after an install onto nothing leaves nothing.
   */
  String remove() {
    if (current().isEmpty()) {
      return "unchanged";
    }
    ObjectNode root = read();
    ObjectNode[] chain = new ObjectNode[parents.size() + 1];
    chain[0] = root;
    for (int i = 0; i < parents.size(); i++) {
      chain[i + 1] = (ObjectNode) chain[i].get(parents.get(i));
    }
    chain[parents.size()].remove(name);
    for (int i = parents.size(); i > 0; i--) {
      if (chain[i].isEmpty()) {
        chain[i - 1].remove(parents.get(i - 1));
      }
    }
    if (root.isEmpty()) {
      try {
        Files.delete(file);
      } catch (IOException e) {
        throw new UserError("cannot delete " + file + ": " + e.getMessage(), e);
      }
    } else {
      write(root);
    }
    return "removed";
  }

  private ObjectNode read() {
    if (!Files.exists(file)) {
      return JSON.createObjectNode();
    }
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      if (text.isBlank()) {
        return JSON.createObjectNode();
      }
      JsonNode n = JSON.readTree(text);
      if (n instanceof ObjectNode o) {
        return o;
      }
      throw new UserError(file + " does not hold a JSON object; fix it by hand, then run this again");
    } catch (JsonProcessingException e) {
      throw new UserError(file + " is not valid JSON (" + e.getOriginalMessage() + " at line "
          + e.getLocation().getLineNr() + "); fix it by hand, then run this again", e);
    } catch (IOException e) {
      throw new UserError("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private void write(ObjectNode root) {
    try {
      ConfigFiles.replace(file, format(root));
    } catch (IOException e) {
      throw new UserError("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** As {@code JSON.stringify(v, null, 2)} plus a newline. */
  static String format(JsonNode root) throws JsonProcessingException {
    DefaultPrettyPrinter pp = new DefaultPrettyPrinter(Separators.createDefaultInstance()
        .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
        .withObjectEmptySeparator("").withArrayEmptySeparator(""));
    DefaultIndenter indent = new DefaultIndenter("  ", "\n");
    pp.indentObjectsWith(indent);
    pp.indentArraysWith(indent);
    return JSON.writer(pp).writeValueAsString(root) + "\n";
  }
}
