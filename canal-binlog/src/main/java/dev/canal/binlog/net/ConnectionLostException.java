package dev.canal.binlog.net;

import java.io.IOException;

/** The connection to the server ended or failed mid-conversation (closed, reset, timed out, or closed by us). */
public class ConnectionLostException extends IOException {

    public ConnectionLostException(String message) {
        super(message);
    }

    public ConnectionLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
