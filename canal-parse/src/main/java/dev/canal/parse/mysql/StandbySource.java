package dev.canal.parse.mysql;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;

/**
 * Canal's standby source ({@code canal.instance.standby.*}) and whether a failing heartbeat switches to it
 * ({@code canal.instance.detecting.heartbeatHaEnable}). The standby is read with the master's account, network
 * and TLS settings; docs/high-availability.md says when the parser switches and where it starts on the other.
 *
 * @param source                  the standby's address and its configured start; null when no address is set
 * @param switchOnFailedHeartbeat whether more than {@code detecting.retry.threshold} failed heartbeats in a row
 *                                switch the parser between master and standby
 */
public record StandbySource(SourceEndpoint source, boolean switchOnFailedHeartbeat) {

    public static final ConfigKey ADDRESS = ConfigKey.canal("canal.instance.standby.address", null,
            "The standby source, host:port, usually a replica of the master with log_slave_updates on; the parser "
                    + "switches to it when heartbeats fail and heartbeatHaEnable is on.");
    public static final ConfigKey JOURNAL = ConfigKey.canal("canal.instance.standby.journal.name", null,
            "Binlog file of the standby to start from when the parser switches to it before any position was "
                    + "delivered.");
    public static final ConfigKey POSITION = ConfigKey.canal("canal.instance.standby.position", null,
            "Offset in that file.");
    public static final ConfigKey TIMESTAMP = ConfigKey.canal("canal.instance.standby.timestamp", null,
            "Start time on the standby (milliseconds since the epoch) when no file is given.");
    public static final ConfigKey GTID = ConfigKey.canal("canal.instance.standby.gtid", null,
            "GTID set to start after on the standby, in GTID mode.");
    public static final ConfigKey HEARTBEAT_HA = ConfigKey.canal("canal.instance.detecting.heartbeatHaEnable", "false",
            "Switch between master and standby when the detecting SQL fails more than retry.threshold times in a "
                    + "row (needs detecting.enable and a standby address).");

    public static final List<ConfigKey> KEYS = List.of(ADDRESS, JOURNAL, POSITION, TIMESTAMP, GTID, HEARTBEAT_HA);

    public static StandbySource fromProperties(TypedProperties p) {
        String address = p.string(ADDRESS);
        SourceEndpoint source = address == null || address.isBlank() ? null
                : SourceEndpoint.parse(ADDRESS, address.trim(), new MysqlParserConfig.StartPosition(p.string(JOURNAL),
                        p.optionalLong(POSITION.name()), p.optionalLong(TIMESTAMP.name()), p.string(GTID)));
        return new StandbySource(source, p.bool(HEARTBEAT_HA));
    }

    public static StandbySource none() {
        return new StandbySource(null, false);
    }
}
