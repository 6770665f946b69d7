package dev.canal.connector.mq;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Entries shaped as the parser builds them, for a test in the parser's role.
 * Table {@code test.user}: id int(11) key, name varchar(32), note text, price decimal(10,2).
 */
public final class TestRows {

    public static final String JOURNAL = "mysql-bin.000001";

    private TestRows() {
    }

    /** One column of a row image. */
    public record Col(String name, int sqlType, String mysqlType, String value, boolean key, boolean updated) {

        CanalEntry.Column toColumn(int index) {
            return CanalEntry.Column.newBuilder().setIndex(index).setSqlType(sqlType).setName(name).setIsKey(key)
                    .setUpdated(updated).setIsNull(value == null).setValue(value == null ? "" : value)
                    .setMysqlType(mysqlType).build();
        }

        public Col asUpdated() {
            return new Col(name, sqlType, mysqlType, value, key, true);
        }
    }

    public static Col id(long id) {
        return new Col("id", Types.INTEGER, "int(11)", Long.toString(id), true, false);
    }

    public static Col name(String name) {
        return new Col("name", Types.VARCHAR, "varchar(32)", name, false, false);
    }

    public static Col note(String note) {
        return new Col("note", Types.CLOB, "text", note, false, false);
    }

    public static Col price(String price) {
        return new Col("price", Types.DECIMAL, "decimal(10,2)", price, false, false);
    }

    public static List<Col> user(long id, String name, String note, String price) {
        return List.of(id(id), name(name), note(note), price(price));
    }

    public static CanalEntry.Entry begin(long offset) {
        return CanalEntry.Entry.newBuilder().setHeader(header(offset, "", "").clearEventType())
                .setEntryType(EntryType.TRANSACTIONBEGIN)
                .setStoreValue(CanalEntry.TransactionBegin.newBuilder().setThreadId(7).build().toByteString()).build();
    }

    public static CanalEntry.Entry end(long offset) {
        return CanalEntry.Entry.newBuilder().setHeader(header(offset, "", "").clearEventType())
                .setEntryType(EntryType.TRANSACTIONEND)
                .setStoreValue(CanalEntry.TransactionEnd.newBuilder().setTransactionId("1").build().toByteString())
                .build();
    }

    public static CanalEntry.Entry insert(long offset, String schema, String table, List<List<Col>> rows) {
        return rows(offset, schema, table, EventType.INSERT, rows.stream().map(after -> row(List.of(), after)).toList());
    }

    public static CanalEntry.Entry delete(long offset, String schema, String table, List<List<Col>> rows) {
        return rows(offset, schema, table, EventType.DELETE, rows.stream().map(before -> row(before, List.of())).toList());
    }

    /** One UPDATE row: before and after images. */
    public static CanalEntry.RowData row(List<Col> before, List<Col> after) {
        CanalEntry.RowData.Builder row = CanalEntry.RowData.newBuilder();
        for (int i = 0; i < before.size(); i++) {
            row.addBeforeColumns(before.get(i).toColumn(i));
        }
        for (int i = 0; i < after.size(); i++) {
            row.addAfterColumns(after.get(i).toColumn(i));
        }
        return row.build();
    }

    public static CanalEntry.Entry update(long offset, String schema, String table, List<CanalEntry.RowData> rows) {
        return rows(offset, schema, table, EventType.UPDATE, rows);
    }

    public static CanalEntry.Entry rows(long offset, String schema, String table, EventType type,
            List<CanalEntry.RowData> rows) {
        CanalEntry.Header.Builder header = header(offset, schema, table).setEventType(type)
                .addProps(CanalEntry.Pair.newBuilder().setKey("rowsCount").setValue(Integer.toString(rows.size())));
        CanalEntry.RowChange change = CanalEntry.RowChange.newBuilder().setTableId(88).setEventType(type)
                .setIsDdl(false).addAllRowDatas(rows).build();
        return CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(EntryType.ROWDATA)
                .setStoreValue(change.toByteString()).build();
    }

    public static CanalEntry.Entry ddl(long offset, String schema, String table, EventType type, String sql) {
        CanalEntry.RowChange change = CanalEntry.RowChange.newBuilder().setEventType(type).setIsDdl(true).setSql(sql)
                .setDdlSchemaName(schema).build();
        return CanalEntry.Entry.newBuilder().setHeader(header(offset, schema, table).setEventType(type))
                .setEntryType(EntryType.ROWDATA).setStoreValue(change.toByteString()).build();
    }

    /** BEGIN, the given row entries, END, at consecutive offsets from {@code firstOffset}. */
    public static List<CanalEntry.Entry> transaction(long firstOffset, List<CanalEntry.Entry> rows) {
        List<CanalEntry.Entry> entries = new ArrayList<>();
        entries.add(begin(firstOffset));
        entries.addAll(rows);
        entries.add(end(firstOffset + rows.size() + 1));
        return entries;
    }

    /** Header at {@code offset} with execute time {@code offset × 1000} ms. */
    public static CanalEntry.Header.Builder header(long offset, String schema, String table) {
        return CanalEntry.Header.newBuilder().setVersion(1).setLogfileName(JOURNAL).setLogfileOffset(offset)
                .setServerId(1).setServerenCode("UTF-8").setExecuteTime(offset * 1000)
                .setSourceType(CanalEntry.Type.MYSQL).setSchemaName(schema).setTableName(table).setEventLength(42);
    }
}
