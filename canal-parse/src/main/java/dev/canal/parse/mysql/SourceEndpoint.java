package dev.canal.parse.mysql;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.protocol.position.LogIdentity;

/**
 * One source the parser may read, master or standby: its address and the start configured for it, used when no
 * position has been delivered yet.
 */
public record SourceEndpoint(String host, int port, MysqlParserConfig.StartPosition start) {

    /** {@code host:port} as written under {@code key}; a bad value is rejected naming the key. */
    static SourceEndpoint parse(ConfigKey key, String address, MysqlParserConfig.StartPosition start) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw TypedProperties.invalid(key.name(), address, "expected host:port");
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw TypedProperties.invalid(key.name(), address, "the port is not a number");
        }
        if (port <= 0 || port > 65535) {
            throw TypedProperties.invalid(key.name(), address, "the port must be 1-65535");
        }
        return new SourceEndpoint(address.substring(0, colon), port, start);
    }

    public LogIdentity identity() {
        return LogIdentity.of(host, port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
