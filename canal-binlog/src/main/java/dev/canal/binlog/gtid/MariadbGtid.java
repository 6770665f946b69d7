package dev.canal.binlog.gtid;

/** One MariaDB GTID, {@code domain-server-sequence} (e.g. {@code 0-1-100}); all three are unsigned. */
public record MariadbGtid(long domainId, long serverId, long sequence) {

    public MariadbGtid {
        if (domainId < 0 || domainId > 0xFFFF_FFFFL || serverId < 0 || serverId > 0xFFFF_FFFFL || sequence < 0) {
            throw new IllegalArgumentException("MariaDB GTID out of range: " + domainId + "-" + serverId + "-" + sequence);
        }
    }

    public static MariadbGtid parse(String text) {
        String[] parts = text.trim().split("-");
        if (parts.length != 3) {
            throw new IllegalArgumentException("MariaDB GTID '" + text + "' is not domain-server-sequence");
        }
        try {
            return new MariadbGtid(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseUnsignedLong(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("MariaDB GTID '" + text + "' has a non-numeric part", e);
        }
    }

    @Override
    public String toString() {
        return domainId + "-" + serverId + "-" + Long.toUnsignedString(sequence);
    }
}
