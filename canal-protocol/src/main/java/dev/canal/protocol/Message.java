package dev.canal.protocol;

import com.google.protobuf.ByteString;
import java.util.List;

/**
 * One batch as a client sees it: an id (-1 for an empty batch) and its entries, either decoded or,
 * in raw mode, as the serialized bytes kept by the store (shipped to clients without re-encoding).
 */
public record Message(long id, boolean raw, List<CanalEntry.Entry> entries, List<ByteString> rawEntries) {

    public static final long EMPTY_BATCH_ID = -1L;

    public Message {
        entries = List.copyOf(entries);
        rawEntries = List.copyOf(rawEntries);
    }

    public static Message empty() {
        return new Message(EMPTY_BATCH_ID, true, List.of(), List.of());
    }

    public static Message ofEntries(long id, List<CanalEntry.Entry> entries) {
        return new Message(id, false, entries, List.of());
    }

    public static Message ofRawEntries(long id, List<ByteString> rawEntries) {
        return new Message(id, true, List.of(), rawEntries);
    }

    public boolean isEmpty() {
        return raw ? rawEntries.isEmpty() : entries.isEmpty();
    }

    public int size() {
        return raw ? rawEntries.size() : entries.size();
    }
}
