package dev.canal.instance;

import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.sink.EventSink;
import dev.canal.store.EventStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A parser that reads no MySQL: it records whether the meta manager, the store and the sink were running when it was
 * started and stopped, and the white filters it was handed, so tests can check the instance's ordering.
 */
public final class ProbeEventParser implements EventParser {

    private final MetaManager metaManager;
    private final EventStore eventStore;
    private final EventSink eventSink;
    private final String label;
    private final boolean failOnStart;
    private final List<String> observations = new CopyOnWriteArrayList<>();
    private final List<String> whiteFilters = new CopyOnWriteArrayList<>();
    private final List<String> filterArrivals = new CopyOnWriteArrayList<>();
    private volatile boolean running;

    public ProbeEventParser(MetaManager metaManager, EventStore eventStore, EventSink eventSink, String label,
            boolean failOnStart) {
        this.metaManager = metaManager;
        this.eventStore = eventStore;
        this.eventSink = eventSink;
        this.label = label;
        this.failOnStart = failOnStart;
    }

    @Override
    public void start() {
        observations.add("start: " + componentsRunning());
        if (failOnStart) {
            throw new IllegalStateException("cannot reach the source database");
        }
        running = true;
    }

    @Override
    public void stop() {
        observations.add("stop: " + componentsRunning());
        running = false;
    }

    private String componentsRunning() {
        return "meta " + metaManager.isStart() + ", store " + eventStore.isStarted() + ", sink " + eventSink.isStarted();
    }

    @Override
    public boolean isStart() {
        return running;
    }

    @Override
    public boolean replaceTableWhiteList(String regex) {
        whiteFilters.add(regex);
        filterArrivals.add(regex + (running ? " while running" : " before start"));
        return true;
    }

    public String label() {
        return label;
    }

    public List<String> observations() {
        return observations;
    }

    public List<String> whiteFilters() {
        return whiteFilters;
    }

    /** Each white filter handed over, with whether the parser was running then. */
    public List<String> filterArrivals() {
        return filterArrivals;
    }
}
