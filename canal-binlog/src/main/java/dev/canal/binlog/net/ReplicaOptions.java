package dev.canal.binlog.net;

import java.time.Duration;

/**
 * How this client presents itself as a replica.
 *
 * @param serverId the replica's server_id ({@code canal.instance.mysql.slaveId}); must differ from every other
 *     replica of the source
 * @param heartbeatPeriod how often an idle source sends a heartbeat event ({@code @master_heartbeat_period});
 *     zero for none. Keep it below the socket timeout.
 */
public record ReplicaOptions(long serverId, Duration heartbeatPeriod) {

    /** Canal's heartbeat period. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

    public ReplicaOptions {
        if (serverId < 1 || serverId > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("replica server id must be in 1.." + 0xFFFF_FFFFL + ", got " + serverId);
        }
        if (heartbeatPeriod == null || heartbeatPeriod.isNegative()) {
            throw new IllegalArgumentException("heartbeat period must be zero or positive, got " + heartbeatPeriod);
        }
    }

    public static ReplicaOptions of(long serverId) {
        return new ReplicaOptions(serverId, DEFAULT_HEARTBEAT);
    }
}
