package dev.canal.deployer.admin;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.server.CanalServer;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Takes what a destination streams through the embedded API, as "schema.table" names of its row entries. */
final class Rows {

    private Rows() {
    }

    /** One get-and-ack of up to 1000 entries, waiting up to a second. */
    static List<String> take(CanalServer server, ClientIdentity client) {
        Message batch = server.getWithoutAck(client, 1000, 1000L, TimeUnit.MILLISECONDS);
        List<String> tables = new ArrayList<>();
        List<CanalEntry.Entry> entries = new ArrayList<>(batch.entries());
        for (ByteString raw : batch.rawEntries()) {
            try {
                entries.add(CanalEntry.Entry.parseFrom(raw));
            } catch (InvalidProtocolBufferException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (CanalEntry.Entry entry : entries) {
            // row changes of a table, not the table-less entries (the source's heartbeats and the like)
            if (entry.getEntryType() == CanalEntry.EntryType.ROWDATA && !entry.getHeader().getTableName().isEmpty()) {
                tables.add(entry.getHeader().getSchemaName() + "." + entry.getHeader().getTableName());
            }
        }
        if (batch.id() != Message.EMPTY_BATCH_ID) {
            server.ack(client, batch.id());
        }
        return tables;
    }
}
