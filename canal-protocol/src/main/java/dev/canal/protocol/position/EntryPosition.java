package dev.canal.protocol.position;

/**
 * Where an event sits in the source's binlog: journal file and offset, the server that wrote it, its
 * time in milliseconds, and the executed GTID set where GTID mode is on. Any part may be unknown
 * (null), as when a start position is configured by timestamp only.
 *
 * <p>{@code included} mirrors Canal's flag: positions produced by the store are "not included", i.e.
 * reading resumes after them.
 */
public record EntryPosition(String journalName, Long position, Long serverId, Long timestamp, String gtid,
        boolean included) {

    public static EntryPosition of(String journalName, long position) {
        return new EntryPosition(journalName, position, null, null, null, false);
    }

    public static EntryPosition of(String journalName, long position, long serverId, long timestamp) {
        return new EntryPosition(journalName, position, serverId, timestamp, null, false);
    }

    public static EntryPosition ofTimestamp(long timestamp) {
        return new EntryPosition(null, null, null, timestamp, null, false);
    }

    public static EntryPosition ofGtid(String gtid) {
        return new EntryPosition(null, null, null, null, gtid, false);
    }

    public boolean hasJournal() {
        return journalName != null && !journalName.isEmpty() && position != null;
    }

    public boolean hasTimestamp() {
        return timestamp != null && timestamp > 0;
    }

    public boolean hasGtid() {
        return gtid != null && !gtid.isEmpty();
    }

    public EntryPosition withGtid(String newGtid) {
        return new EntryPosition(journalName, position, serverId, timestamp, newGtid, included);
    }

    /**
     * Binlog order within one source: file name first (MySQL numbers them with fixed-width suffixes),
     * then offset. Both positions must carry a journal.
     */
    public int compareJournalTo(EntryPosition other) {
        int byFile = journalName.compareTo(other.journalName);
        return byFile != 0 ? byFile : Long.compare(position, other.position);
    }
}
