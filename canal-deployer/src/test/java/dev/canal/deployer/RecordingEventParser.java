package dev.canal.deployer;

import dev.canal.parse.EventParser;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A parser that reads no database and records every start and stop, per destination and configuration label. */
public final class RecordingEventParser implements EventParser {

    /** "start example v1", "stop example v1", ... in the order they happened, across all instances. */
    static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    private final String destination;
    private final String label;
    private final boolean failOnStart;
    private final long stopMillis;
    private volatile boolean running;

    /** @param stopMillis how long stop takes, to stand for a parser that hangs while stopping */
    public RecordingEventParser(String destination, String label, boolean failOnStart, long stopMillis) {
        this.destination = destination;
        this.label = label;
        this.failOnStart = failOnStart;
        this.stopMillis = stopMillis;
    }

    static List<String> eventsOf(String destination) {
        return EVENTS.stream().filter(e -> e.split(" ")[1].equals(destination)).toList();
    }

    @Override
    public void start() {
        if (failOnStart) {
            EVENTS.add("failed " + destination + " " + label);
            throw new IllegalStateException("source database of " + destination + " unreachable");
        }
        EVENTS.add("start " + destination + " " + label);
        running = true;
    }

    @Override
    public void stop() {
        EVENTS.add("stop " + destination + " " + label);
        running = false;
        try {
            Thread.sleep(stopMillis); // a stop that takes this long, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isStart() {
        return running;
    }
}
