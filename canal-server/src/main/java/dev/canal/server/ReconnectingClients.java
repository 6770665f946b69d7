package dev.canal.server;

import dev.canal.protocol.ClientIdentity;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Official clients this server has just told to connect to it after a handover (their election node deleted,
 * docs/high-availability.md, "Stopping a server"). Such a client reconnects from its ZooKeeper thread (connect,
 * subscribe, then roll back) while its application thread goes on calling get and ack on the same connector: a
 * batch handed out before that rollback is discarded by it, its ack fails, and it is delivered again. So until the
 * client rolls back, or for a client that does not roll back on connect until the patience runs out, its gets find
 * nothing.
 */
final class ReconnectingClients {

    /** Longest wait for a client's rollback, whatever the patience asked for. */
    private static final long MAX_WAIT_NANOS = Duration.ofSeconds(60).toNanos();

    /** Per subscription and client id, until when (System.nanoTime) its gets find nothing. */
    private final Map<String, Long> deadlines = new ConcurrentHashMap<>();
    private final long waitNanos;

    ReconnectingClients(Duration wait) {
        this.waitNanos = Math.min(wait.toNanos(), MAX_WAIT_NANOS);
    }

    /** The client of this subscription (a destination or {@code destination@consumer}) and id is told to reconnect. */
    void expect(String subscription, short clientId) {
        deadlines.put(key(subscription, clientId), System.nanoTime() + waitNanos);
    }

    /** Whether the client's gets should find nothing: told to reconnect, not rolled back since, still in time. */
    boolean awaited(ClientIdentity client) {
        if (deadlines.isEmpty()) {
            return false;
        }
        String key = key(client.destination(), client.clientId());
        Long deadline = deadlines.get(key);
        if (deadline == null) {
            return false;
        }
        if (System.nanoTime() - deadline >= 0) {
            deadlines.remove(key, deadline);
            return false;
        }
        return true;
    }

    /** The client rolled back: it has reconnected, and batches handed out from now on are its own. */
    void rolledBack(ClientIdentity client) {
        if (!deadlines.isEmpty()) {
            deadlines.remove(key(client.destination(), client.clientId()));
        }
    }

    private static String key(String subscription, short clientId) {
        return subscription + "/" + clientId;
    }
}
