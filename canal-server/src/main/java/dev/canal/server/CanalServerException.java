package dev.canal.server;

/** A request the server refuses, with Canal's message text. */
public class CanalServerException extends RuntimeException {

    public CanalServerException(String message) {
        super(message);
    }

    public CanalServerException(String message, Throwable cause) {
        super(message, cause);
    }
}
