package dev.agentdesk.aci.client;

import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import java.util.List;

/**
 * Observe-after-act on every mutating verb (the schema's {@code MutatingVerb} set): each call sends
 * the action with {@code observe} set to this view's capture levers and returns the ack with the
 * follow-up observation (cause = the call id), which a binary session receives as a binary frame
 * and the client hands over decoded. Get one from {@link AciClient#observing}.
 */
public final class ObservingClient {
  private final AciClient client;
  private final ObserveSpec levers;

  ObservingClient(AciClient client, ObserveSpec levers) {
    this.client = client;
    this.levers = levers;
  }

  public ObserveSpec levers() {
    return levers;
  }

  /** Any mutating action, observed; the action's own {@code observe} is replaced by this view's. */
  public ActionReply.Acked act(Action action) {
    if (!action.verb().isMutating()) {
      throw new IllegalArgumentException("observe-after-act needs a mutating verb, not " + action.verb().wire());
    }
    return (ActionReply.Acked) client.act(action.toBuilder().observe(levers).build());
  }

  public ActionReply.Acked click(Target at) {
    return act(Action.click(at));
  }

  public ActionReply.Acked doubleClick(Target at) {
    return act(Action.doubleClick(at));
  }

  public ActionReply.Acked rightClick(Target at) {
    return act(Action.rightClick(at));
  }

  public ActionReply.Acked move(Target to) {
    return act(Action.move(to));
  }

  public ActionReply.Acked drag(Target from, Target to, PointerButton button, Long durationMs) {
    return act(Action.builder(Verb.DRAG).target(from).to(to).button(button).durationMs(durationMs).build());
  }

  public ActionReply.Acked mouseDown(Target at, PointerButton button) {
    return act(Action.builder(Verb.MOUSE_DOWN).target(at).button(button).build());
  }

  public ActionReply.Acked mouseUp(Target at, PointerButton button) {
    return act(Action.builder(Verb.MOUSE_UP).target(at).button(button).build());
  }

  public ActionReply.Acked scroll(Target at, double dx, double dy) {
    return act(Action.scroll(at, dx, dy));
  }

  public ActionReply.Acked typeText(String text) {
    return act(Action.typeText(text));
  }

  public ActionReply.Acked key(String combo) {
    return act(Action.key(combo));
  }

  public ActionReply.Acked invokeAction(String elementRef, String actionName) {
    return act(Action.builder(Verb.INVOKE_ACTION).target(new Target.ElementRef(elementRef)).text(actionName).build());
  }

  public ActionReply.Acked setValue(String elementRef, String value) {
    return act(Action.builder(Verb.SET_VALUE).target(new Target.ElementRef(elementRef)).text(value).build());
  }

  public ActionReply.Acked clipboardSet(String text) {
    return act(Action.clipboardSet(text));
  }

  public ActionReply.Acked launchApp(String app, List<String> args) {
    return act(Action.launchApp(app, args));
  }

  public ActionReply.Acked activateWindow(long windowId) {
    return act(Action.activateWindow(windowId));
  }

  public ActionReply.Acked activateWindow(String titleFragment) {
    return act(Action.activateWindowByTitle(titleFragment));
  }
}
