package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * When each server started and stopped serving a destination, on one clock. A start is recorded before the
 * instance starts and a stop after it stopped, so the recorded intervals contain the real ones.
 */
final class ServingLog {

    record Change(String server, boolean serving, long nanos) {
    }

    private final List<Change> changes = new ArrayList<>();

    /** A listener for {@code server} that records here, then starts or stops {@code delegate}. */
    ServerRunningListener listener(String server, ServerRunningListener delegate) {
        return new ServerRunningListener() {
            @Override
            public void activeEnter(String destination) {
                record(server, true);
                delegate.activeEnter(destination);
            }

            @Override
            public void activeExit(String destination) {
                delegate.activeExit(destination);
                record(server, false);
            }

            @Override
            public Set<String> quiesce(Set<String> destinations, Duration wait) {
                return delegate.quiesce(destinations, wait);
            }
        };
    }

    /** A listener for {@code server} that only records. */
    ServerRunningListener listener(String server) {
        return listener(server, new ServerRunningListener() {
            @Override
            public void activeEnter(String destination) {
                // nothing runs: the record is the test's instance
            }

            @Override
            public void activeExit(String destination) {
                // as above
            }

            @Override
            public Set<String> quiesce(Set<String> destinations, Duration wait) {
                return Set.of(); // no client holds anything
            }
        });
    }

    synchronized List<Change> changes() {
        return List.copyOf(changes);
    }

    synchronized long startsOf(String server) {
        return changes.stream().filter(c -> c.server().equals(server) && c.serving()).count();
    }

    /** Nanos of the server's last start or stop. */
    synchronized long lastChange(String server, boolean serving) {
        return changes.stream().filter(c -> c.server().equals(server) && c.serving() == serving)
                .mapToLong(Change::nanos).max()
                .orElseThrow(() -> new AssertionError(server + " never " + (serving ? "started" : "stopped")));
    }

    /** No moment at which two servers served: every start comes when nobody else serves. */
    synchronized void assertNeverTwoServing() {
        Set<String> serving = new HashSet<>();
        for (Change change : changes) {
            if (change.serving()) {
                assertThat(serving).as("servers serving when %s started; log %s", change.server(), changes)
                        .isEmpty();
                serving.add(change.server());
            } else {
                serving.remove(change.server());
            }
        }
    }

    private synchronized void record(String server, boolean serving) {
        changes.add(new Change(server, serving, System.nanoTime()));
    }
}
