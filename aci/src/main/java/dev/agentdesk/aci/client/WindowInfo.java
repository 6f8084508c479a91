package dev.agentdesk.aci.client;

/** One entry of the {@code list_windows} query; {@code pid} may be null when unknown. */
public record WindowInfo(long id, String title, Long pid, long x, long y, long w, long h, boolean focused) {}
