package dev.canal.deployer;

import java.util.Locale;

/** {@code canal.serverMode}: how entries leave the server. TCP and Kafka are built so far. */
public enum ServerMode {
    TCP, KAFKA, ROCKETMQ, RABBITMQ, PULSARMQ;

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
