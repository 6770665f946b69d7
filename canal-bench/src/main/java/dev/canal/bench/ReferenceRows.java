package dev.canal.bench;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.CompatibilityMode;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows as the reference decoder, mysql-binlog-connector-java, hands them over: its deserializer as the benchmark
 * configures it, the row count of its event data, and the content check's digest of its rows. Shared by the
 * in-memory decode stage and the live one, so that both decode and check content alike.
 */
final class ReferenceRows {

    private final Map<Long, String> tables = new HashMap<>();
    private final RowDigest digest;
    private final boolean binaryJson;

    /**
     * @param digest     where every row of the events {@linkplain #add added} goes
     * @param binaryJson JSON columns hold MySQL's binary JSON (MySQL) rather than the JSON text (MariaDB)
     */
    ReferenceRows(RowDigest digest, boolean binaryJson) {
        this.digest = digest;
        this.binaryJson = binaryJson;
    }

    /**
     * The reference's deserializer in its cheapest modes (temporal values as longs, text and binary columns as
     * byte arrays): what it costs at its fastest.
     */
    static EventDeserializer newDeserializer() {
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
                CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return deserializer;
    }

    /** The rows a write, update or delete event carries; 0 for any other event (and for null data). */
    static int count(EventData data) {
        if (data instanceof WriteRowsEventData write) {
            return write.getRows().size();
        } else if (data instanceof UpdateRowsEventData update) {
            return update.getRows().size();
        } else if (data instanceof DeleteRowsEventData delete) {
            return delete.getRows().size();
        }
        return 0;
    }

    /** Remembers a table map's table, digests every row of a rows event under it; other events are ignored. */
    void add(EventData data) {
        if (data instanceof TableMapEventData map) {
            tables.put(map.getTableId(), map.getDatabase() + "." + map.getTable());
        } else if (data instanceof WriteRowsEventData write) {
            for (Serializable[] after : write.getRows()) {
                digest.add(table(write.getTableId()), "INSERT", String.valueOf(after[0]), null, image(after));
            }
        } else if (data instanceof UpdateRowsEventData update) {
            for (Map.Entry<Serializable[], Serializable[]> row : update.getRows()) {
                digest.add(table(update.getTableId()), "UPDATE", String.valueOf(row.getValue()[0]),
                        image(row.getKey()), image(row.getValue()));
            }
        } else if (data instanceof DeleteRowsEventData delete) {
            for (Serializable[] before : delete.getRows()) {
                digest.add(table(delete.getTableId()), "DELETE", String.valueOf(before[0]), image(before), null);
            }
        }
    }

    private String table(long tableId) {
        String table = tables.get(tableId);
        if (table == null) {
            throw new IllegalStateException("rows event of table id " + tableId + " before its table map");
        }
        return table;
    }

    private List<String> image(Serializable[] values) {
        return BenchTable.referenceImage(values, binaryJson);
    }
}
