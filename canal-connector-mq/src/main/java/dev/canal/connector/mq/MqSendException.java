package dev.canal.connector.mq;

/** The broker did not acknowledge every record of a batch; the batch must be rolled back. */
public final class MqSendException extends Exception {

    public MqSendException(String message, Throwable cause) {
        super(message, cause);
    }
}
