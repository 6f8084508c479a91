package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Builders.BuilderCombinator;
import net.jqwik.api.Combinators;

/**
 * Generators of contract-valid wire values: every field the schema admits, with the
 * probability of an optional field being present well below one so absent fields are exercised
 * too, and verb-specific requirements and gates honoured.
 */
final class WireArbitraries {
  private WireArbitraries() {}

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final double OPTIONAL = 0.4;

  static Arbitrary<String> text() {
    return Arbitraries.strings().withCharRange(' ', '~').withChars("\n\t\u00e9\u4e2d\u0000\u2028")
        .ofMaxLength(12);
  }

  static Arbitrary<String> ids() {
    return Arbitraries.strings().alpha().numeric().withChars("-_?").ofMinLength(1).ofMaxLength(10);
  }

  static Arbitrary<Double> numbers() {
    return Arbitraries.oneOf(Arbitraries.doubles().between(-1e6, 1e6),
        Arbitraries.integers().between(-5000, 5000).map(Integer::doubleValue), Arbitraries.of(-0.0, 0.0, 1e-9));
  }

  static Arbitrary<Long> naturals() {
    return Arbitraries.longs().between(0, Long.MAX_VALUE);
  }

  static Arbitrary<Long> positive() {
    return Arbitraries.longs().between(1, Long.MAX_VALUE);
  }

  static <E extends Enum<E>> Arbitrary<List<E>> enumList(Class<E> type) {
    return Arbitraries.of(type).list().ofMaxSize(5);
  }

  static Arbitrary<Scope> scopes() {
    return Arbitraries.oneOf(Arbitraries.of(Scope.SCREEN, Scope.ACTIVE_WINDOW),
        Arbitraries.longs().between(0, 0xffffffffL).map(Scope::window),
        Arbitraries.longs().between(0, 0xffffffffL).map(id -> Scope.parse("window:0x" + Long.toHexString(id))));
  }

  static Arbitrary<Target> targets() {
    return Arbitraries.oneOf(
        Combinators.combine(numbers(), numbers()).as(Target.PointPx::new),
        Combinators.combine(Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1))
            .as(Target.PointNorm::new),
        Combinators.combine(ids(), Arbitraries.of(ElementSource.class).injectNull(0.5)).as(Target.ElementRef::new));
  }

  static Arbitrary<ObserveSpec> observeSpecs() {
    return Combinators.combine(scopes().injectNull(0.5), Arbitraries.of(ImageFormat.class).injectNull(0.5),
        Arbitraries.integers().between(1, 100).injectNull(0.5), Arbitraries.integers().between(1, 10000).injectNull(0.5))
        .as(ObserveSpec::new);
  }

  /** Open JSON the way the parser produces it (int nodes for small integers, double nodes for floats). */
  static Arbitrary<JsonNode> json() {
    Arbitrary<JsonNode> leaf = Arbitraries.oneOf(
        text().map(F::textNode), Arbitraries.integers().map(i -> (JsonNode) F.numberNode(i)),
        Arbitraries.doubles().between(-1e9, 1e9).filter(d -> d != Math.rint(d) || d == 0.5)
            .map(d -> (JsonNode) F.numberNode(d)),
        Arbitraries.of(true, false).map(b -> (JsonNode) F.booleanNode(b)), Arbitraries.just(F.nullNode()));
    Arbitrary<JsonNode> array = leaf.list().ofMaxSize(3).map(items -> {
      var a = F.arrayNode();
      items.forEach(a::add);
      return (JsonNode) a;
    });
    return Arbitraries.oneOf(leaf, array, jsonObjects().map(o -> (JsonNode) o));
  }

  static Arbitrary<ObjectNode> jsonObjects() {
    return Arbitraries.maps(ids(), text()).ofMaxSize(3).map(m -> {
      ObjectNode o = F.objectNode();
      m.forEach(o::put);
      return o;
    });
  }

  static Arbitrary<Action> actions() {
    return Arbitraries.of(Verb.class).flatMap(WireArbitraries::actionFor);
  }

  private static final Set<Verb> NEED_TARGET = Set.of(Verb.CLICK, Verb.DOUBLE_CLICK, Verb.RIGHT_CLICK, Verb.MOVE,
      Verb.SCROLL, Verb.INVOKE_ACTION, Verb.SET_VALUE, Verb.DRAG);

  static Arbitrary<Action> actionFor(Verb verb) {
    BuilderCombinator<Action.Builder> b = Builders.withBuilder(() -> Action.builder(verb))
        .use(targets()).withProbability(NEED_TARGET.contains(verb) ? 1.0 : OPTIONAL).in(Action.Builder::target)
        .use(targets()).withProbability(verb == Verb.DRAG ? 1.0 : 0.2).in(Action.Builder::to)
        .use(text()).withProbability(
            Set.of(Verb.TYPE_TEXT, Verb.SET_VALUE, Verb.CLIPBOARD_SET).contains(verb) ? 1.0 : 0.2)
        .in(Action.Builder::text)
        .use(text()).withProbability(verb == Verb.KEY ? 1.0 : 0.2).in(Action.Builder::keys)
        .use(Arbitraries.of(PointerButton.class)).withProbability(0.2).in(Action.Builder::button)
        .use(naturals()).withProbability(0.2).in(Action.Builder::durationMs)
        .use(numbers()).withProbability(0.2).in(Action.Builder::dx)
        .use(numbers()).withProbability(0.2).in(Action.Builder::dy)
        .use(naturals()).withProbability(0.2).in(Action.Builder::ms)
        .use(scopes()).withProbability(0.2).in(Action.Builder::scope)
        .use(Arbitraries.doubles().between(0.1, 30)).withProbability(0.2).in(Action.Builder::fps)
        .use(Arbitraries.integers().between(1, Integer.MAX_VALUE)).withProbability(0.2).in(Action.Builder::maxLongEdge)
        .use(Arbitraries.of(ImageFormat.class)).withProbability(0.2).in(Action.Builder::format)
        .use(Arbitraries.integers().between(1, 100)).withProbability(0.2).in(Action.Builder::quality)
        .use(Arbitraries.of(true, false)).withProbability(0.2).in(Action.Builder::delta)
        .use(ids()).withProbability(0.2).in(Action.Builder::resumeStream)
        .use(ids()).withProbability(0.2).in(Action.Builder::ifNoneMatch);
    if (verb.isMutating()) {
      b = b.use(observeSpecs()).withProbability(OPTIONAL).in(Action.Builder::observe);
    }
    if (verb == Verb.OBSERVE) {
      b = b.use(Arbitraries.of(true, false)).withProbability(OPTIONAL).in(Action.Builder::structured)
          .use(Arbitraries.of(true, false)).withProbability(OPTIONAL).in(Action.Builder::diff)
          .use(naturals()).withProbability(OPTIONAL).in(Action.Builder::settleMs);
    }
    if (verb == Verb.EXEC) {
      b = b.use(Arbitraries.oneOf(text().list().ofMinSize(1).ofMaxSize(4).map(argv -> (Object) argv),
              text().map(shell -> (Object) shell)))
          .in((builder, form) -> form instanceof String s ? builder.shell(s) : builder.argv(castList(form)))
          .use(text()).withProbability(OPTIONAL).in(Action.Builder::cwd)
          .use(Arbitraries.maps(ids(), text()).ofMaxSize(3)).withProbability(OPTIONAL).in(Action.Builder::env)
          .use(positive()).withProbability(OPTIONAL).in(Action.Builder::timeoutMs)
          .use(text()).withProbability(OPTIONAL).in(Action.Builder::stdin)
          .use(Arbitraries.of(true, false)).withProbability(OPTIONAL).in(Action.Builder::stream)
          .use(Arbitraries.just(false)).withProbability(0.2).in(Action.Builder::pty);
    }
    if (verb == Verb.LAUNCH_APP) {
      b = b.use(text().filter(s -> !s.isEmpty())).in(Action.Builder::app)
          .use(text().list().ofMaxSize(3)).withProbability(OPTIONAL).in(Action.Builder::args);
    }
    if (verb == Verb.ACTIVATE_WINDOW) {
      b = b.use(Arbitraries.oneOf(naturals().map(id -> (Object) id), text().filter(s -> !s.isEmpty()).map(s -> (Object) s)))
          .in((builder, sel) -> sel instanceof Long id ? builder.windowId(id) : builder.app((String) sel));
    }
    return b.build(Action.Builder::build);
  }

  @SuppressWarnings("unchecked")
  private static List<String> castList(Object o) {
    return (List<String>) o;
  }

  static Arbitrary<CoordinateSpace> coordinateSpaces() {
    Arbitrary<CoordinateRect> rect = Combinators.combine(Arbitraries.longs().between(-10000, 10000),
        Arbitraries.longs().between(-10000, 10000), positive(), positive()).as(CoordinateRect::new);
    Arbitrary<CoordinateSize> size = Combinators.combine(positive(), positive()).as(CoordinateSize::new);
    return Combinators.combine(positive(), positive(), Arbitraries.doubles().between(0.25, 4), rect, size)
        .as(CoordinateSpace::new);
  }

  static Arbitrary<Element> elements() {
    return Builders.withBuilder(() -> new ElementParts())
        .use(ids()).inSetter((p, v) -> p.ref = v)
        .use(text()).inSetter((p, v) -> p.role = v)
        .use(text()).withProbability(OPTIONAL).inSetter((p, v) -> p.name = v)
        .use(text()).withProbability(OPTIONAL).inSetter((p, v) -> p.description = v)
        .use(text()).withProbability(OPTIONAL).inSetter((p, v) -> p.value = v)
        .use(text().list().ofMaxSize(3)).withProbability(OPTIONAL).inSetter((p, v) -> p.states = v)
        .use(text().list().ofMaxSize(3)).withProbability(OPTIONAL).inSetter((p, v) -> p.actions = v)
        .use(Arbitraries.of(true, false)).withProbability(OPTIONAL).inSetter((p, v) -> p.focused = v)
        .use(Combinators.combine(numbers(), numbers(), numbers(), numbers()).as(Bbox::new)).inSetter((p, v) -> p.bbox = v)
        .use(Arbitraries.of(ElementSource.class)).withProbability(OPTIONAL).inSetter((p, v) -> p.source = v)
        .use(jsonObjects()).withProbability(0.2).inSetter((p, v) -> p.provenance = v)
        .build(p -> new Element(p.ref, p.role, p.name, p.description, p.value, p.states, p.actions, p.focused, p.bbox,
            p.source, p.provenance));
  }

  private static final class ElementParts {
    String ref;
    String role;
    String name;
    String description;
    String value;
    List<String> states;
    List<String> actions;
    Boolean focused;
    Bbox bbox;
    ElementSource source;
    ObjectNode provenance;
  }

  static Arbitrary<String> base64() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(24).map(b -> java.util.Base64.getEncoder().encodeToString(b));
  }

  static Arbitrary<ObservationImage> images() {
    return Combinators.combine(base64(), positive(), positive(), scopes().injectNull(0.5),
        Arbitraries.of(ImageFormat.class).injectNull(0.5)).as(ObservationImage::new);
  }

  static Arbitrary<List<Tile>> tiles() {
    return Combinators.combine(naturals(), naturals(), positive(), positive(), base64()).as(Tile::new)
        .list().ofMinSize(1).ofMaxSize(4);
  }

  /** Image-bearing observations: one-shot screenshots, stream keyframes and delta frames. */
  static Arbitrary<ObservationMsg> imageObservations() {
    Arbitrary<ObservationMsg> oneShot = Builders.withBuilder(() -> ObservationMsg.builder("obs"))
        .use(ids()).in(ObservationMsg.Builder::obsId)
        .use(ids()).withProbability(0.8).in(ObservationMsg.Builder::cause)
        .use(coordinateSpaces()).withProbability(OPTIONAL).in(ObservationMsg.Builder::display)
        .use(images()).in(ObservationMsg.Builder::image)
        .use(ids()).withProbability(OPTIONAL).in(ObservationMsg.Builder::frameHash)
        .use(Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(PointerPosition::new))
        .withProbability(OPTIONAL).in(ObservationMsg.Builder::pointer)
        .build(ObservationMsg.Builder::build);
    Arbitrary<ObservationMsg> streamed = Builders.withBuilder(() -> ObservationMsg.builder("obs"))
        .use(ids()).in(ObservationMsg.Builder::obsId)
        .use(ids()).in(ObservationMsg.Builder::stream)
        .use(naturals()).in(ObservationMsg.Builder::seq)
        .use(Arbitraries.oneOf(images().map(i -> (Object) i), tiles().map(t -> (Object) t)))
        .in((b, payload) -> payload instanceof ObservationImage i ? b.image(i) : b.tiles(castTiles(payload)))
        .build(ObservationMsg.Builder::build);
    return Arbitraries.oneOf(oneShot, streamed);
  }

  @SuppressWarnings("unchecked")
  private static List<Tile> castTiles(Object o) {
    return (List<Tile>) o;
  }

  static Arbitrary<ObservationMsg> observations() {
    Arbitrary<ObservationMsg> notModified = Builders.withBuilder(() -> ObservationMsg.builder("obs"))
        .use(ids()).in(ObservationMsg.Builder::cause)
        .use(ids()).in(ObservationMsg.Builder::frameHash)
        .use(coordinateSpaces()).withProbability(OPTIONAL).in(ObservationMsg.Builder::display)
        .build(b -> b.notModified(true).build());
    Arbitrary<ObservationMsg> structured = Builders.withBuilder(() -> ObservationMsg.builder("obs"))
        .use(ids()).withProbability(0.8).in(ObservationMsg.Builder::cause)
        .use(Arbitraries.of(TreeForm.class)).withProbability(OPTIONAL).in(ObservationMsg.Builder::tree)
        .use(text()).withProbability(OPTIONAL).in(ObservationMsg.Builder::treeText)
        .use(positive()).withProbability(OPTIONAL).in(ObservationMsg.Builder::revision)
        .use(positive()).withProbability(OPTIONAL).in(ObservationMsg.Builder::diffOf)
        .use(ids()).withProbability(OPTIONAL).in(ObservationMsg.Builder::focus)
        .use(naturals()).withProbability(OPTIONAL).in(ObservationMsg.Builder::nodeCount)
        .use(Arbitraries.doubles().between(0, 1e5)).withProbability(OPTIONAL).in(ObservationMsg.Builder::captureMs)
        .use(elements().list().ofMaxSize(3)).withProbability(OPTIONAL).in(ObservationMsg.Builder::elements)
        .use(Combinators.combine(elements().list().ofMaxSize(2).injectNull(0.3), ids().list().ofMaxSize(3).injectNull(0.3),
            elements().list().ofMaxSize(2).injectNull(0.3)).as(Delta::new))
        .withProbability(0.3).in(ObservationMsg.Builder::delta)
        .build(ObservationMsg.Builder::build);
    return Arbitraries.oneOf(imageObservations(), notModified, structured);
  }

  static Arbitrary<AciMessage> messages() {
    Arbitrary<Capabilities> caps = Builders.withBuilder(() -> new Object[9])
        .use(enumList(Verb.class)).inSetter((a, v) -> a[0] = v)
        .use(enumList(TargetKind.class)).inSetter((a, v) -> a[1] = v)
        .use(enumList(ObservationType.class)).inSetter((a, v) -> a[2] = v)
        .use(Arbitraries.integers().between(1, 10000)).withProbability(OPTIONAL).inSetter((a, v) -> a[3] = v)
        .use(enumList(ImageFormat.class)).withProbability(OPTIONAL).inSetter((a, v) -> a[4] = v)
        .use(Arbitraries.of(true, false)).withProbability(OPTIONAL).inSetter((a, v) -> a[5] = v)
        .use(Arbitraries.of(true, false)).withProbability(OPTIONAL).inSetter((a, v) -> a[6] = v)
        .use(Arbitraries.of(true, false)).withProbability(OPTIONAL).inSetter((a, v) -> a[7] = v)
        .use(Arbitraries.of(true, false)).withProbability(OPTIONAL).inSetter((a, v) -> a[8] = v)
        .build(WireArbitraries::capabilities);
    Arbitrary<AciMessage> hello = Combinators.combine(
        Combinators.combine(text(), text()).as(ClientInfo::new),
        Combinators.combine(enumList(ObservationType.class).injectNull(0.5),
            Arbitraries.of(true, false).injectNull(0.5)).as(Accept::new).injectNull(0.4),
        text().injectNull(0.5)).as(Hello::new);
    Arbitrary<AciMessage> welcome = Combinators.combine(
        Combinators.combine(text(), text(), Arbitraries.of(Platform.class)).as(ServerInfo::new), caps).as(Welcome::new);
    return Arbitraries.oneOf(List.of(
        hello,
        welcome,
        numbers().injectNull(0.3).map(Ping::new),
        numbers().injectNull(0.3).map(Pong::new),
        Combinators.combine(ids(), Arbitraries.of(QueryKind.class)).as(Query::new),
        Combinators.combine(ids(), Arbitraries.of(true, false), json().injectNull(0.3), text().injectNull(0.5))
            .as(Result::new),
        Combinators.combine(ids(), actions()).as(ActionMsg::new),
        Combinators.combine(ids(), Arbitraries.of(true, false), text().injectNull(0.5)).as(Ack::new),
        observations().map(o -> (AciMessage) o),
        Combinators.combine(ids(), naturals(), Arbitraries.of(Channel.class), base64()).as(ExecOutputMsg::new),
        Combinators.combine(ids(), Arbitraries.longs().injectNull(0.3), Arbitraries.longs().between(1, 64).injectNull(0.6),
            Arbitraries.of(true, false), Arbitraries.doubles().between(0, 1e7), Arbitraries.of(true, false),
            text().injectNull(0.7)).as(ExecExitMsg::new)));
  }

  @SuppressWarnings("unchecked")
  private static Capabilities capabilities(Object[] a) {
    return new Capabilities((List<Verb>) a[0], (List<TargetKind>) a[1], (List<ObservationType>) a[2], (Integer) a[3],
        (List<ImageFormat>) a[4], (Boolean) a[5], (Boolean) a[6], (Boolean) a[7], (Boolean) a[8]);
  }

  static Arbitrary<ExecResult> execResults() {
    return Combinators.combine(Arbitraries.longs().injectNull(0.3), Arbitraries.longs().between(1, 64).injectNull(0.6),
        Arbitraries.of(true, false), text(), text(), Arbitraries.of(true, false), Arbitraries.of(true, false),
        Arbitraries.doubles().between(0, 1e7)).as(ExecResult::new);
  }
}
