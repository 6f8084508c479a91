package dev.agentdesk.terminal.parser;

/** An enum with a fixed wire spelling in the JSON form of events. */
interface WireEnum {
  String wire();
}
