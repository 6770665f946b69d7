package dev.canal.store;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * One entry as the store holds it: the entry itself (serialized bytes in raw mode, the parsed
 * message otherwise) plus the header facts the store needs for positions, ack points, ddl isolation,
 * memory accounting and metrics, so it never re-parses.
 *
 * @param rawEntry   the serialized entry; non-null in raw mode
 * @param entry      the parsed entry; non-null when not in raw mode
 * @param gtid       the header's gtid, "" when absent
 * @param eventType  the header's event type (BEGIN/END headers carry none: proto default UPDATE)
 * @param rowsCount  the header prop {@code rowsCount} of a ROWDATA entry, else 0
 * @param rawLength  bytes counted against MEMSIZE limits
 */
public record Event(LogIdentity logIdentity, ByteString rawEntry, CanalEntry.Entry entry, String journalName,
        long logfileOffset, long serverId, long executeTime, String gtid, EntryType entryType,
        EventType eventType, int rowsCount, long rawLength) {

    private static final String ROWS_COUNT_PROP = "rowsCount";
    /** Non-raw mode estimates an entry's memory as six times its binlog event length, as Canal does. */
    private static final int NON_RAW_SIZE_FACTOR = 6;
    /**
     * From this {@code storeValue} size on, raw mode shares the value's bytes instead of copying them (see
     * {@link #encode}); below it one flat array is cheaper to write and to parse again.
     */
    static final int SHARED_STORE_VALUE_BYTES = 64 * 1024;
    private static final int HEADER_FIELD = CanalEntry.Entry.HEADER_FIELD_NUMBER;
    private static final int ENTRY_TYPE_FIELD = CanalEntry.Entry.ENTRYTYPE_FIELD_NUMBER;
    private static final int STORE_VALUE_FIELD = CanalEntry.Entry.STOREVALUE_FIELD_NUMBER;

    public Event {
        Objects.requireNonNull(logIdentity, "logIdentity");
        Objects.requireNonNull(entryType, "entryType");
        Objects.requireNonNull(eventType, "eventType");
        if (rawEntry == null && entry == null) {
            throw new IllegalArgumentException("an Event needs its entry, raw or parsed");
        }
        gtid = gtid == null ? "" : gtid;
    }

    /**
     * Builds the store's event for one entry. In raw mode the entry is encoded here, once, and only
     * the bytes are kept; otherwise the parsed entry is kept.
     */
    public static Event of(LogIdentity logIdentity, CanalEntry.Entry entry, boolean raw) {
        CanalEntry.Header header = entry.getHeader();
        ByteString bytes = raw ? encode(entry) : null;
        long size = raw ? bytes.size() : header.getEventLength() * NON_RAW_SIZE_FACTOR;
        return new Event(logIdentity, bytes, raw ? null : entry, header.getLogfileName(),
                header.getLogfileOffset(), header.getServerId(), header.getExecuteTime(), header.getGtid(),
                entry.getEntryType(), header.getEventType(), rowsCount(entry), size);
    }

    /**
     * The entry's bytes, identical to {@code entry.toByteString()}. A large {@code storeValue} is not copied: the
     * result is a rope of the other fields' bytes, the value itself and any unknown fields, in the order the
     * generated {@code writeTo} writes them (field number order, unknown fields last). A 16 MiB row's entry is thus
     * held once, not twice, while the put that carries it waits behind a full store (docs/reliability.md, scenario 9).
     */
    static ByteString encode(CanalEntry.Entry entry) {
        if (!entry.hasStoreValue() || entry.getStoreValue().size() < SHARED_STORE_VALUE_BYTES) {
            return entry.toByteString();
        }
        ByteString value = entry.getStoreValue();
        int headSize = (entry.hasHeader() ? CodedOutputStream.computeMessageSize(HEADER_FIELD, entry.getHeader()) : 0)
                + (entry.hasEntryType()
                        ? CodedOutputStream.computeEnumSize(ENTRY_TYPE_FIELD, entry.getEntryType().getNumber()) : 0)
                + CodedOutputStream.computeTagSize(STORE_VALUE_FIELD)
                + CodedOutputStream.computeUInt32SizeNoTag(value.size());
        byte[] head = new byte[headSize];
        CodedOutputStream out = CodedOutputStream.newInstance(head);
        try {
            if (entry.hasHeader()) {
                out.writeMessage(HEADER_FIELD, entry.getHeader());
            }
            if (entry.hasEntryType()) {
                out.writeEnum(ENTRY_TYPE_FIELD, entry.getEntryType().getNumber());
            }
            out.writeTag(STORE_VALUE_FIELD, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(value.size());
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException("encoding the entry at " + entry.getHeader().getLogfileName() + ":"
                    + entry.getHeader().getLogfileOffset(), e);
        }
        return UnsafeByteOperations.unsafeWrap(head).concat(value).concat(entry.getUnknownFields().toByteString());
    }

    private static int rowsCount(CanalEntry.Entry entry) {
        if (entry.getEntryType() != EntryType.ROWDATA) {
            return 0;
        }
        for (CanalEntry.Pair prop : entry.getHeader().getPropsList()) {
            if (ROWS_COUNT_PROP.equals(prop.getKey())) {
                try {
                    return Integer.parseInt(prop.getValue());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("entry at " + entry.getHeader().getLogfileName() + ":"
                            + entry.getHeader().getLogfileOffset() + " has a non-numeric rowsCount '"
                            + prop.getValue() + "'", e);
                }
            }
        }
        return 0;
    }

    public boolean isRaw() {
        return rawEntry != null;
    }

    /** A DDL entry, which ddl isolation returns alone and which is an ack point. */
    public boolean isDdl() {
        return isDdl(eventType);
    }

    /** Whether an entry of this event type is a DDL in the store's sense. */
    public static boolean isDdl(EventType eventType) {
        return switch (eventType) {
            case CREATE, ALTER, ERASE, RENAME, TRUNCATE, CINDEX, DINDEX -> true;
            default -> false;
        };
    }

    /**
     * Whether acking a batch ending at or after this event may move the client cursor here: a
     * transaction end, a DDL, or a transaction begin outside GTID mode.
     */
    public boolean isAckPoint() {
        return isAckPoint(entryType, eventType, gtid);
    }

    /** {@link #isAckPoint()} for an entry as a client receives it. */
    public static boolean isAckPoint(CanalEntry.Entry entry) {
        CanalEntry.Header header = entry.getHeader();
        return isAckPoint(entry.getEntryType(), header.getEventType(), header.getGtid());
    }

    private static boolean isAckPoint(EntryType entryType, EventType eventType, String gtid) {
        return entryType == EntryType.TRANSACTIONEND
                || (entryType == EntryType.TRANSACTIONBEGIN && (gtid == null || gtid.isEmpty()))
                || isDdl(eventType);
    }

    /** The entry as bytes: the stored bytes in raw mode, else encoded now. */
    public ByteString rawBytes() {
        return rawEntry != null ? rawEntry : entry.toByteString();
    }

    /** The entry as a message: the stored one, else parsed from the raw bytes now. */
    public CanalEntry.Entry parsedEntry() {
        if (entry != null) {
            return entry;
        }
        try {
            return CanalEntry.Entry.parseFrom(rawEntry);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("stored entry at " + journalName + ":" + logfileOffset
                    + " does not parse", e);
        }
    }

    /** This event's position as the store reports it (Canal's CanalEventUtils.createPosition). */
    public LogPosition toLogPosition(boolean included) {
        return new LogPosition(logIdentity, new EntryPosition(journalName, logfileOffset, serverId, executeTime,
                gtid.isEmpty() ? null : gtid, included));
    }

    /**
     * Whether an acked position designates this event: same execute time and, when the position
     * names a journal, the same journal and offset.
     */
    public boolean matches(LogPosition logPosition) {
        EntryPosition p = logPosition.position();
        if (p.timestamp() == null || p.timestamp() != executeTime) {
            return false;
        }
        if (p.journalName() == null && p.position() == null) {
            return true;
        }
        return p.position() != null && p.position() == logfileOffset && Objects.equals(p.journalName(), journalName);
    }

    @Override
    public String toString() {
        return "Event[" + journalName + ":" + logfileOffset + ", time=" + executeTime + ", " + entryType + "/"
                + eventType + (gtid.isEmpty() ? "" : ", gtid=" + gtid) + ", bytes=" + rawLength + "]";
    }
}
