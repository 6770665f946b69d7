package dev.canal.deployer;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a start has set running, released in the reverse order of its start, by a failed start as by a stop: each
 * step runs whatever the steps before it did, and a step that fails is logged.
 */
final class Closer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Closer.class);

    /** One release. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    private record Named(String what, Step step) {
    }

    private final Deque<Named> steps = new ArrayDeque<>(); // guarded by this

    /** @param what names the step in the log when it fails */
    synchronized void add(String what, Step step) {
        steps.push(new Named(what, step));
    }

    /** Runs every step added, the last added first, once. */
    @Override
    public void close() {
        Named next;
        while ((next = pop()) != null) {
            try {
                next.step().run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.warn("stopping {} was interrupted", next.what());
            } catch (Exception e) {
                log.warn("stopping {} failed", next.what(), e);
            }
        }
    }

    private synchronized Named pop() {
        return steps.poll();
    }
}
