package dev.canal.reliability;

import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.function.Consumer;

/** The after-images of the inserted rows of a message, in entry order, for scenarios that look at column values. */
final class InsertedRows {

    private InsertedRows() {
    }

    static void forEach(Message message, Consumer<CanalEntry.RowData> action) {
        message.getEntries().forEach(entry -> forEach(entry, action));
    }

    /** The after-images of an entry's inserted rows; none for an entry that is not an INSERT's row data. */
    static void forEach(CanalEntry.Entry entry, Consumer<CanalEntry.RowData> action) {
        if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
            return;
        }
        CanalEntry.RowChange change;
        try {
            change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("unreadable row change in " + entry.getHeader(), e);
        }
        if (change.getEventType() == CanalEntry.EventType.INSERT) {
            change.getRowDatasList().forEach(action);
        }
    }

    /** The value of a column of the row's after-image; fails naming the columns there are. */
    static CanalEntry.Column column(CanalEntry.RowData row, String name) {
        return row.getAfterColumnsList().stream().filter(c -> c.getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no column " + name + " in " + row.getAfterColumnsList()
                        .stream().map(CanalEntry.Column::getName).toList()));
    }
}
