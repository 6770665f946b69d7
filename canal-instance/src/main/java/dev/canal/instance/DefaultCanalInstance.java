package dev.canal.instance;

import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.UntrustedText;
import dev.canal.protocol.position.LogPosition;
import dev.canal.sink.EventSink;
import dev.canal.store.EventStore;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One destination's pipeline (Canal's AbstractCanalInstance). Starts meta manager, alarm handler, store (and
 * attaches the named consumers the meta manager knows), sink and parser in that order, so nothing produces before its consumer runs and the parser finds the
 * clients' cursors loaded; stops in reverse, the meta manager last so that its final flush sees every ack.
 *
 * <p>Between sink and parser the filters the clients subscribed with, as the meta manager kept them, are
 * handed to the parser again, so that the parser's first event is already filtered as those clients asked
 * and not by {@code canal.instance.filter.regex} alone (docs/compatibility.md, subscribe filters after a restart).
 *
 * <p>A start that fails stops what it had started, in reverse, and throws an {@link InstanceStartException}
 * naming the destination and the component. Stop keeps going when a component fails to stop, logs each
 * failure and rethrows the first at the end.
 */
public class DefaultCanalInstance implements CanalInstance {

    private static final Logger log = LoggerFactory.getLogger(DefaultCanalInstance.class);

    /** A component in start order, with how to start, stop and ask it whether it runs. */
    private record Component(String name, Runnable start, Runnable stop, BooleanSupplier running) {
    }

    private final String destination;
    private final MetaManager metaManager;
    private final EventStore eventStore;
    private final EventSink eventSink;
    private final EventParser eventParser;
    private final AlarmHandler alarmHandler;
    private final List<Component> components;
    private boolean started; // guarded by this
    private boolean prepared; // guarded by this: prepare() ran and no start or stop since

    public DefaultCanalInstance(String destination, MetaManager metaManager, AlarmHandler alarmHandler,
            EventStore eventStore, EventSink eventSink, EventParser eventParser) {
        this.destination = Objects.requireNonNull(destination, "destination");
        this.metaManager = Objects.requireNonNull(metaManager, "metaManager");
        this.alarmHandler = Objects.requireNonNull(alarmHandler, "alarmHandler");
        this.eventStore = Objects.requireNonNull(eventStore, "eventStore");
        this.eventSink = Objects.requireNonNull(eventSink, "eventSink");
        this.eventParser = Objects.requireNonNull(eventParser, "eventParser");
        this.components = List.of(
                // the server may have started the meta manager already, for a subscribe
                new Component("meta manager", metaManager::start, metaManager::stop, metaManager::isStart),
                new Component("alarm handler", alarmHandler::start, alarmHandler::stop, () -> false),
                new Component("event store", eventStore::start, eventStore::stop, eventStore::isStarted),
                new Component("named consumers", this::attachNamedConsumers, () -> { }, () -> false),
                new Component("event sink", eventSink::start, eventSink::stop, eventSink::isStarted),
                new Component("subscribed client filters", this::applySubscribedFilters, () -> { }, () -> false),
                new Component("event parser", eventParser::start, eventParser::stop, eventParser::isStart));
    }

    @Override
    public String getDestination() {
        return destination;
    }

    @Override
    public EventParser getEventParser() {
        return eventParser;
    }

    @Override
    public EventStore getEventStore() {
        return eventStore;
    }

    @Override
    public MetaManager getMetaManager() {
        return metaManager;
    }

    @Override
    public EventSink getEventSink() {
        return eventSink;
    }

    public AlarmHandler getAlarmHandler() {
        return alarmHandler;
    }

    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        Deque<Component> startedComponents = new ArrayDeque<>();
        for (Component component : components) {
            try {
                if (!component.running().getAsBoolean()) {
                    component.start().run();
                }
                startedComponents.push(component);
            } catch (RuntimeException e) {
                log.error("destination {}: starting the {} failed, stopping what was started", destination,
                        component.name(), e);
                stopAll(startedComponents);
                throw new InstanceStartException(destination, component.name(), e);
            }
        }
        started = true;
        prepared = false;
        log.info("destination {}: instance started", destination);
    }

    /** Readies the parser (its schema history) and reads the kept cursors once, ahead of the start. */
    @Override
    public synchronized void prepare() {
        if (started || prepared) {
            return;
        }
        metaManager.prepare(destination);
        eventParser.prepare();
        prepared = true;
    }

    @Override
    public synchronized void stop() {
        if (!started) {
            if (prepared) {
                prepared = false;
                eventParser.stop(); // releases what prepare() holds
            }
            return;
        }
        started = false;
        Deque<Component> inStopOrder = new ArrayDeque<>();
        components.forEach(inStopOrder::push);
        RuntimeException failure = stopAll(inStopOrder);
        log.info("destination {}: instance stopped", destination);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public synchronized boolean isStart() {
        return started;
    }

    /**
     * A non-empty client filter replaces the parser's table white list for every client of the destination;
     * an empty one keeps the configured list. The black list never changes.
     */
    @Override
    public boolean subscribeChange(ClientIdentity identity) {
        if (!identity.hasFilter()) {
            return false;
        }
        if (!eventParser.replaceTableWhiteList(identity.filter())) {
            log.warn("destination {}: the parser {} takes no client filter; {} keeps the configured one",
                    destination, eventParser.getClass().getSimpleName(), identity);
            return false;
        }
        log.info("destination {}: table white list replaced by the filter of {}", destination, identity);
        return true;
    }

    /**
     * Re-applies the filter of every subscribed client, in the meta manager's order: the last non-empty one wins. A
     * kept filter that no longer compiles is reported and skipped: the destination starts with the others (or its
     * configured list), never not at all. A kept filter replaces canal.instance.filter.regex for as long as its
     * client's subscription is kept, whether or not that client ever connects again, so each one applied is said,
     * naming the filter and the client.
     */
    private void applySubscribedFilters() {
        for (ClientIdentity client : metaManager.listAllSubscribeInfo(destination)) {
            try {
                if (subscribeChange(client)) {
                    log.warn("destination {}: the subscribe filter {} saved by client {} replaces "
                            + "canal.instance.filter.regex from the start, and goes on doing so while that client's "
                            + "subscription is kept, even if it never connects again (docs/compatibility.md)",
                            destination, UntrustedText.quote(client.filter()), client.clientId());
                }
            } catch (IllegalArgumentException e) {
                log.error("destination {}: the kept filter of client {} is not valid and is skipped ({}); the client "
                        + "sets it again when it subscribes", destination, client.clientId(),
                        e.getMessage().lines().findFirst().orElse(""));
            }
        }
    }

    /**
     * Attaches every named consumer the meta manager knows (docs/consumers.md) at its cursor before the parser
     * starts, so that the store keeps for each what it has not acked, whoever reconnects first. When only named
     * consumers are subscribed, the store keeps nothing for the default one until it subscribes.
     */
    private void attachNamedConsumers() {
        List<String> names = metaManager.listSubscribedNames(destination);
        if (!names.isEmpty() && !names.contains(destination)) {
            eventStore.detach(ConsumerName.DEFAULT); // only named consumers: keep nothing for the default one
        }
        for (String name : names) {
            if (!DestinationNameRule.isWellFormedSubscription(name)) {
                log.error("destination {}: skipping kept consumer {}, which is not a valid name",
                        destination, UntrustedText.quote(name));
                continue;
            }
            ConsumerName consumer = ConsumerName.parse(name);
            if (consumer.isDefault()) {
                continue;
            }
            LogPosition cursor = null;
            for (ClientIdentity client : metaManager.listAllSubscribeInfo(name)) {
                LogPosition clientCursor = metaManager.getCursor(client);
                cursor = cursor == null ? clientCursor : cursor;
            }
            eventStore.attach(consumer.consumer(), cursor);
        }
    }

    /** Stops the components from the head of the deque on; returns the first failure. */
    private RuntimeException stopAll(Deque<Component> inStopOrder) {
        RuntimeException first = null;
        for (Component component : inStopOrder) {
            try {
                component.stop().run();
            } catch (RuntimeException e) {
                log.error("destination {}: stopping the {} failed", destination, component.name(), e);
                first = first == null ? e : first;
            }
        }
        return first;
    }
}
