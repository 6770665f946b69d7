package dev.canal.protocol.position;

/** The source a position belongs to: its address and the replica id we used (Canal writes -1). */
public record LogIdentity(String address, int port, long slaveId) {

    public static final long UNKNOWN_SLAVE_ID = -1L;

    public static LogIdentity of(String address, int port) {
        return new LogIdentity(address, port, UNKNOWN_SLAVE_ID);
    }

    public boolean sameSourceAs(LogIdentity other) {
        return other != null && port == other.port && address.equalsIgnoreCase(other.address);
    }
}
