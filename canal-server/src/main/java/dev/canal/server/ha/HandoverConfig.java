package dev.canal.server.ha;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * How a server of a ZooKeeper cluster hands its destinations over when it stops or releases one
 * (docs/high-availability.md, "Stopping a server").
 *
 * @param ackTimeout    how long it waits for the clients to ack the batches they hold, handing out nothing new
 * @param clientTimeout how long the clients of a destination handed over are answered with nothing while they move
 *                      to the server that took over; then a stopping server closes their connections and a running
 *                      one fails their gets
 */
public record HandoverConfig(Duration ackTimeout, Duration clientTimeout) {

    private static final long MAX_MILLIS = 60_000;

    public static final ConfigKey ACK_TIMEOUT = ConfigKey.ours("canal.handover.ack.timeout", "3000",
            "Milliseconds a server giving a destination up (stop, release) waits for its clients to ack the "
                    + "batches they hold, handing out nothing new; batches still unacked then are delivered again by "
                    + "the server taking over.").between(0, MAX_MILLIS);
    public static final ConfigKey CLIENT_TIMEOUT = ConfigKey.ours("canal.handover.client.timeout", "5000",
            "Milliseconds the clients of a destination this server handed over are answered with nothing while "
                    + "they move to the server that took over. Then a stopping server closes their connections (at "
                    + "once when no other server can take over), and a running one answers their gets with 'should "
                    + "start first', so that a client that missed the move connects again.")
            .between(0, MAX_MILLIS);

    public static final List<ConfigKey> KEYS = List.of(ACK_TIMEOUT, CLIENT_TIMEOUT);

    /** The defaults of the keys. */
    public static final HandoverConfig DEFAULT = fromProperties(new Properties());

    public HandoverConfig {
        Objects.requireNonNull(ackTimeout, "ackTimeout");
        Objects.requireNonNull(clientTimeout, "clientTimeout");
        if (ackTimeout.isNegative() || clientTimeout.isNegative()) {
            throw new IllegalArgumentException("handover timeouts must not be negative: " + ackTimeout + ", "
                    + clientTimeout);
        }
    }

    /** Reads {@link #KEYS}; absent or blank keys take their defaults. */
    public static HandoverConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new HandoverConfig(Duration.ofMillis(p.longValue(ACK_TIMEOUT)),
                Duration.ofMillis(p.longValue(CLIENT_TIMEOUT)));
    }
}
