package dev.canal.instance;

import dev.canal.parse.EventParser;

/** A parser that only keeps its place in the start order, for tests that produce the entries themselves. */
public final class IdleEventParser implements EventParser {

    private volatile boolean running;

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isStart() {
        return running;
    }
}
