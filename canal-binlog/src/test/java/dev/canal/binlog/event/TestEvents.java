package dev.canal.binlog.event;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/** Builds binlog v4 events byte by byte, as a MySQL 8.0 server writes them. */
public final class TestEvents {

    public static final long TIMESTAMP = 1_700_000_000L;
    public static final int SERVER_ID = 7;
    private static final byte[] MYSQL8_POST_HEADERS = {0, 13, 0, 8, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 99, 0, 4, 26, 8, 0, 0,
        0, 8, 8, 8, 2, 0, 0, 0, 10, 10, 10, 42, 42, 0, 18, 52, 0, 10, 40, 0, 0};

    private TestEvents() {
    }

    /** A whole event: 19-byte header, body, and a CRC32 when asked. */
    public static byte[] event(int type, byte[] body, boolean crc32) {
        int length = 19 + body.length + (crc32 ? 4 : 0);
        Bytes b = new Bytes().u32(TIMESTAMP).u8(type).u32(SERVER_ID).u32(length).u32(1000 + length).u16(0).bytes(body);
        byte[] withoutCrc = b.toArray();
        if (!crc32) {
            return withoutCrc;
        }
        CRC32 crc = new CRC32();
        crc.update(withoutCrc);
        return b.u32(crc.getValue()).toArray();
    }

    public static byte[] event(int type, byte[] body) {
        return event(type, body, false);
    }

    public static byte[] formatDescription(String serverVersion, boolean crc32) {
        byte[] version = new byte[50];
        byte[] v = serverVersion.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(v, 0, version, 0, v.length);
        Bytes body = new Bytes().u16(4).bytes(version).u32(0).u8(19).bytes(MYSQL8_POST_HEADERS)
                .u8(crc32 ? 1 : 0);
        return event(EventType.FORMAT_DESCRIPTION, body.toArray(), true);
    }

    public static byte[] query(String schema, String sql, byte[] statusVars) {
        Bytes body = new Bytes().u32(42).u32(3).u8(schema.length()).u16(0).u16(statusVars.length).bytes(statusVars)
                .str(schema).u8(0).str(sql);
        return event(EventType.QUERY, body.toArray());
    }

    /** TABLE_MAP with the given column types and per-column metadata bytes, all columns nullable. */
    public static byte[] tableMap(long tableId, String schema, String table, int[] types, byte[] meta,
            byte[] optionalMetadata) {
        Bytes body = new Bytes().u48(tableId).u16(1).u8(schema.length()).str(schema).u8(0).u8(table.length())
                .str(table).u8(0).lenenc(types.length);
        for (int t : types) {
            body.u8(t);
        }
        body.lenenc(meta.length).bytes(meta);
        byte[] nullable = new byte[(types.length + 7) / 8];
        java.util.Arrays.fill(nullable, (byte) 0xFF);
        body.bytes(nullable).bytes(optionalMetadata);
        return event(EventType.TABLE_MAP, body.toArray());
    }

    /** WRITE_ROWS_V2 (or another v2 rows type) with all columns present and the given row images. */
    public static byte[] rowsV2(int type, long tableId, int columns, byte[] rowImages) {
        Bytes body = new Bytes().u48(tableId).u16(RowsEvent.STMT_END_F).u16(2).lenenc(columns);
        byte[] bitmap = new byte[(columns + 7) / 8];
        java.util.Arrays.fill(bitmap, (byte) 0xFF);
        body.bytes(bitmap);
        if (type == EventType.UPDATE_ROWS_V2 || type == EventType.PARTIAL_UPDATE_ROWS) {
            body.bytes(bitmap);
        }
        body.bytes(rowImages);
        return event(type, body.toArray());
    }

    public static final long SAMPLE_TABLE_ID = 91;
    public static final int[] SAMPLE_TYPES = {3, 15, 246, 18, 17, 19, 252, 245, 254, 16, 5, 13, 10};

    /** {"a": 1} in MySQL's binary JSON: small object, one key, an inlined INT16. */
    public static byte[] sampleJson() {
        return new Bytes().u8(0x00).u16(1).u16(12).u16(11).u16(1).u8(0x05).u16(1).str("a").toArray();
    }

    /** One row of {@link #SAMPLE_TYPES}: 42, 'abc', 1234.56, 2024-01-02 03:04:05.123456, ts 1700000000.123,
     * 01:02:03.500, 'blob', {"a": 1}, ENUM #2, BIT 0x1555, 2.5, 2024, 2024-02-29. */
    public static byte[] sampleRow() {
        long ymd = ((2024L * 13 + 1) << 5) | 2;
        long hms = (3L << 12) | (4 << 6) | 5;
        byte[] json = sampleJson();
        return new Bytes().u16(0)
                .u32(42)
                .u8(3).str("abc")
                .bytes(0x80, 0x00, 0x04, 0xD2, 0x38)
                .be(((ymd << 17) | hms) + 0x8000000000L, 5).be(123456, 3)
                .be(1_700_000_000L, 4).be(1230, 2)
                .be(((1L << 12) | (2 << 6) | 3) + 0x800000L, 3).be(5000, 2)
                .u16(4).str("blob")
                .u32(json.length).bytes(json)
                .u8(2)
                .be(0x1555, 2)
                .u64(Double.doubleToLongBits(2.5))
                .u8(124)
                .u24((2024 << 9) | (2 << 5) | 29)
                .toArray();
    }

    public static byte[] sampleTableMap() {
        byte[] meta = new Bytes().u16(100).bytes(10, 2).u8(6).u8(3).u8(3).u8(2).u8(4).bytes(247, 1).bytes(5, 1).u8(8)
                .toArray();
        byte[] names = new Bytes().str("").toArray();
        Bytes optional = new Bytes().u8(1).lenenc(1).u8(0x80);
        Bytes columnNames = new Bytes();
        for (int i = 0; i < SAMPLE_TYPES.length; i++) {
            columnNames.lenenc(2).str("c" + (char) ('a' + i));
        }
        optional.u8(4).lenenc(columnNames.size()).bytes(columnNames.toArray());
        optional.u8(8).lenenc(1).u8(0);
        return tableMap(SAMPLE_TABLE_ID, "db", "sample", SAMPLE_TYPES, meta, optional.bytes(names).toArray());
    }

    /** A small stream as MySQL 8 writes it (no checksums): FDE, GTID, QUERY BEGIN, TABLE_MAP, WRITE_ROWS, XID. */
    public static java.util.List<byte[]> sampleStream() {
        byte[] status = new Bytes().u8(0).u32(0).u8(1).u64(0x1000).u8(6).u8(3).str("std").u8(4).u16(33).u16(33)
                .u16(8).u8(5).u8(6).str("SYSTEM").u8(13).u24(123).u8(129).u64(77).toArray();
        byte[] gtid = new Bytes().u8(1).be(0x94d47226ebec11f1L, 8).be(0x9c9d02fc00000001L, 8).u64(52).u8(2).u64(10)
                .u64(11).le(1_700_000_000_123456L | (1L << 55), 7).le(1_700_000_000_000001L, 7).lenenc(300)
                .u32(80036 | (1L << 31)).u32(50744).toArray();
        return java.util.List.of(
                formatDescription("8.0.36", false),
                event(EventType.GTID, gtid),
                query("db", "BEGIN", status),
                sampleTableMap(),
                rowsV2(EventType.WRITE_ROWS_V2, SAMPLE_TABLE_ID, SAMPLE_TYPES.length, sampleRow()),
                event(EventType.XID, new Bytes().u64(99).toArray()));
    }
}
