package dev.canal.deployer;

import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqModes;

/**
 * {@code canal.serverMode}: how entries leave the server, {@code tcp} (clients on the TCP port) or the MQ mode of a
 * broker whose connector is on the class path (docs/mq.md).
 *
 * @param mq the broker's mode; null in tcp mode
 */
public record ServerMode(MqMode mq) {

    public static final String TCP_NAME = "tcp";
    public static final ServerMode TCP = new ServerMode(null);

    /** As Canal reads it, ignoring case; null for a name that is neither tcp nor a broker found. */
    static ServerMode parse(String text) {
        if (text.equalsIgnoreCase(TCP_NAME)) {
            return TCP;
        }
        return MqModes.find(text).map(ServerMode::new).orElse(null);
    }

    public boolean isTcp() {
        return mq == null;
    }

    /** tcp, or the broker's mode as Canal spells it. */
    public String name() {
        return mq == null ? TCP_NAME : mq.name();
    }
}
