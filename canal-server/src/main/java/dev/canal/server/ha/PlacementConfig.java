package dev.canal.server.ha;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * How the servers of a ZooKeeper cluster spread the destinations among themselves (docs/high-availability.md,
 * "Spreading destinations over servers").
 *
 * @param balance  whether each server keeps to its share; off: Canal's first come, first served
 * @param slack    how many destinations a server may run beyond its even share
 * @param interval the pace: at most one move per server per interval, and how often a server that declined a
 *                 destination looks again
 * @param minStay  how long a destination stays on a server before it may be moved away again
 * @param weight   this server's part of the destinations relative to the other servers': a server of weight 2 runs
 *                 about twice as many as one of weight 1
 */
public record PlacementConfig(boolean balance, int slack, Duration interval, Duration minStay, int weight) {

    /** The largest weight: enough for any mix of machines, small enough that no share's arithmetic overflows. */
    static final int MAX_WEIGHT = 1000;

    private static final long MAX_MILLIS = 3_600_000;

    public static final ConfigKey BALANCE = ConfigKey.ours("canal.placement.balance", "true",
            "Whether each server of a ZooKeeper cluster runs no more than its share of the destinations (their number "
                    + "divided by the live servers', rounded up), handing the rest over to servers below theirs; "
                    + "false keeps Canal's first come, first served.");
    public static final ConfigKey SLACK = ConfigKey.ours("canal.placement.slack", "0",
            "How many destinations a server may run beyond its even share before it hands one over.")
            .between(0, 10_000);
    public static final ConfigKey INTERVAL = ConfigKey.ours("canal.placement.interval", "1000",
            "Milliseconds between two moves of one server (one destination at a time), and between two looks of a "
                    + "server at a destination it declined because it had its share.").between(100, MAX_MILLIS);
    public static final ConfigKey MIN_STAY = ConfigKey.ours("canal.placement.min.stay", "10000",
            "Milliseconds a destination stays on a server before the balancing may move it away again.")
            .between(0, MAX_MILLIS);
    public static final ConfigKey WEIGHT = ConfigKey.ours("canal.placement.weight", "1",
            "This server's weight in the spread: its share is its weight's part of the destinations (a server of "
                    + "weight 2 runs about twice as many as one of weight 1). Published in its node under "
                    + "/otter/canal/cluster.").between(1, MAX_WEIGHT);

    public static final List<ConfigKey> KEYS = List.of(BALANCE, SLACK, INTERVAL, MIN_STAY, WEIGHT);

    /** The defaults of the keys. */
    public static final PlacementConfig DEFAULT = fromProperties(new Properties());

    /** Canal's behaviour: every server competes for every destination. */
    public static final PlacementConfig FIRST_COME = new PlacementConfig(false, 0, DEFAULT.interval, DEFAULT.minStay,
            1);

    public PlacementConfig {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(minStay, "minStay");
        if (slack < 0 || interval.isZero() || interval.isNegative() || minStay.isNegative() || weight < 1
                || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("invalid placement: slack " + slack + ", interval " + interval
                    + ", minimum stay " + minStay + ", weight " + weight);
        }
    }

    /** Reads {@link #KEYS}; absent or blank keys take their defaults. */
    public static PlacementConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new PlacementConfig(p.bool(BALANCE), p.integer(SLACK), Duration.ofMillis(p.longValue(INTERVAL)),
                Duration.ofMillis(p.longValue(MIN_STAY)), p.integer(WEIGHT));
    }
}
