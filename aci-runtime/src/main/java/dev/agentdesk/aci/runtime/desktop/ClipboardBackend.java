package dev.agentdesk.aci.runtime.desktop;

/** The desktop clipboard, text only. */
public interface ClipboardBackend {
  String get();

  void set(String text);
}
