package dev.agentdesk.aci.runtime.atspi;

/**
 * One ACI session's view of the accessibility tree: refs, revisions and the diff baseline live
 * here, so create one per session ({@link AtspiEngine#openSession()}). All methods throw
 * {@link StructuredObservationException} with the wire error text; none of them crash on a
 * missing bus. Thread-safe: calls are serialized.
 */
public interface StructuredObserver extends AutoCloseable {

  /** Walks the active application's tree and renders it (full, or as a diff when asked). */
  Observation observe(ObserveRequest request);

  /**
   * Runs an AT-SPI action on an element of the last observation.
   *
   * @param action the action name; null means the element's first action
   */
  void invokeAction(String ref, String action);

  /** Sets an element's text (EditableText) or, failing that, its number (Value). */
  void setValue(String ref, String value);

  /**
   * The point a pointer verb aimed at {@code ref} goes to: the centre of the element's current
   * box, clipped to the screen.
   */
  ScreenPoint resolveCenter(String ref, int screenW, int screenH);

  /** Forgets this session's refs; the engine's bus connection stays open for other sessions. */
  @Override
  void close();
}
