package dev.canal.binlog.net;

import dev.canal.binlog.io.LittleEndianCursor;
import java.io.IOException;

/**
 * An error packet (0xFF) from the server: its error code (e.g. 1045 access denied, 1236 binlog purged or not found),
 * SQL state and message, plus what we were doing when it came.
 */
public class MysqlServerException extends IOException {

    /** ER_ACCESS_DENIED_ERROR. */
    public static final int ACCESS_DENIED = 1045;
    /** ER_MASTER_FATAL_ERROR_READING_BINLOG: the requested binlog is gone or never existed. */
    public static final int FATAL_ERROR_READING_BINLOG = 1236;

    static final int ERROR_MARKER = 0xFF;
    private static final int SQL_STATE_MARKER = '#';
    private static final int SQL_STATE_LENGTH = 5;

    private final int errorCode;
    private final String sqlState;
    private final String serverMessage;

    public MysqlServerException(int errorCode, String sqlState, String serverMessage, String context) {
        super(context + ": server error " + errorCode + (sqlState == null ? "" : " (" + sqlState + ")") + ": "
                + serverMessage);
        this.errorCode = errorCode;
        this.sqlState = sqlState;
        this.serverMessage = serverMessage;
    }

    /** Parses an error packet whose first byte is 0xFF; the SQL state is present when it starts with '#'. */
    static MysqlServerException fromPacket(byte[] packet, int offset, int length, String context) {
        LittleEndianCursor in = new LittleEndianCursor(packet, offset, length);
        in.skip(1);
        int code = in.uint16();
        String state = null;
        if (in.remaining() > SQL_STATE_LENGTH && (packet[in.position()] & 0xFF) == SQL_STATE_MARKER) {
            in.skip(1);
            state = in.string(SQL_STATE_LENGTH);
        }
        return new MysqlServerException(code, state, in.remainingString(), context);
    }

    static MysqlServerException fromPacket(byte[] packet, String context) {
        return fromPacket(packet, 0, packet.length, context);
    }

    public int errorCode() {
        return errorCode;
    }

    /** Five-character SQL state, or null when the server sent none (errors before the handshake). */
    public String sqlState() {
        return sqlState;
    }

    /** The server's own message text. */
    public String serverMessage() {
        return serverMessage;
    }
}
