package dev.agentdesk.aci.client;

/** The answer to the {@code screen_size} query. */
public record ScreenSize(long w, long h) {}
