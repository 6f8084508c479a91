package dev.agentdesk.aci.wire;

/** Live pointer position {@code [x, y]} in global action pixels (observation metadata). */
public record PointerPosition(long x, long y) {}
