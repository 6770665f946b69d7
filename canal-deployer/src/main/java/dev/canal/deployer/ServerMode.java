package dev.canal.deployer;

import java.util.Locale;

/** {@code canal.serverMode}: how entries leave the server. */
public enum ServerMode {
    TCP(true), KAFKA(true), ROCKETMQ(true), RABBITMQ(true), PULSARMQ(true);

    private final boolean built;

    ServerMode(boolean built) {
        this.built = built;
    }

    /** Whether this server has the mode; Canal's other modes stop start-up naming the key. */
    boolean built() {
        return built;
    }

    /** Case-insensitive, as Canal reads it; null for an unknown mode. */
    static ServerMode parse(String text) {
        for (ServerMode mode : values()) {
            if (mode.name().equals(text.toUpperCase(Locale.ROOT))) {
                return mode;
            }
        }
        return null;
    }
}
