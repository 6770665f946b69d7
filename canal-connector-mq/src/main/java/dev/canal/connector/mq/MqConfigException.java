package dev.canal.connector.mq;

/** An invalid MQ setting; the message names the key. */
public final class MqConfigException extends IllegalArgumentException {

    public MqConfigException(String message) {
        super(message);
    }

    public MqConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
