package dev.canal.binlog.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.column.DateValue;
import dev.canal.binlog.column.DatetimeValue;
import dev.canal.binlog.column.TimeValue;
import dev.canal.binlog.column.TimestampValue;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Decodes a hand-built MySQL 8 stream whose every byte is known, so each field can be checked exactly. */
class SampleStreamTest {

    @Test
    void decodesHeadersAndEveryBodyOfTheSampleStream() {
        DecoderContext context = new DecoderContext();
        List<BinlogEvent> events = TestEvents.sampleStream().stream().map(context::decode).toList();

        FormatDescriptionEvent fde = (FormatDescriptionEvent) events.get(0);
        assertThat(fde.serverVersion()).isEqualTo("8.0.36");
        assertThat(fde.checksumAlgorithm()).isEqualTo(FormatDescriptionEvent.CHECKSUM_NONE);
        assertThat(fde.postHeaderLength(EventType.WRITE_ROWS_V2)).isEqualTo(10);

        GtidEvent gtid = (GtidEvent) events.get(1);
        assertThat(gtid.header().timestamp()).isEqualTo(TestEvents.TIMESTAMP);
        assertThat(gtid.header().serverId()).isEqualTo(TestEvents.SERVER_ID);
        assertThat(gtid.sid()).isEqualTo(UUID.fromString("94d47226-ebec-11f1-9c9d-02fc00000001"));
        assertThat(gtid.gtid()).isEqualTo("94d47226-ebec-11f1-9c9d-02fc00000001:52");
        assertThat(gtid.lastCommitted()).isEqualTo(10);
        assertThat(gtid.sequenceNumber()).isEqualTo(11);
        assertThat(gtid.immediateCommitTimestamp()).isEqualTo(1_700_000_000_123456L);
        assertThat(gtid.originalCommitTimestamp()).isEqualTo(1_700_000_000_000001L);
        assertThat(gtid.transactionLength()).isEqualTo(300);
        assertThat(gtid.immediateServerVersion()).isEqualTo(80036);
        assertThat(gtid.originalServerVersion()).isEqualTo(50744);

        QueryEvent begin = (QueryEvent) events.get(2);
        assertThat(begin.sql()).isEqualTo("BEGIN");
        assertThat(begin.schema()).isEqualTo("db");
        assertThat(begin.threadId()).isEqualTo(42);
        QueryStatusVariables status = begin.statusVariables();
        assertThat(status.sqlMode()).isEqualTo(0x1000);
        assertThat(status.catalog()).isEqualTo("std");
        assertThat(status.charsetClient()).isEqualTo(33);
        assertThat(status.collationServer()).isEqualTo(8);
        assertThat(status.timeZone()).isEqualTo("SYSTEM");
        assertThat(status.microseconds()).isEqualTo(123);
        assertThat(status.mariaXid()).isEqualTo(77);
        assertThat(status.unknownCode()).isNull();

        TableMapEvent map = (TableMapEvent) events.get(3);
        assertThat(map.qualifiedName()).isEqualTo("db.sample");
        assertThat(map.metadata().isUnsigned(0)).isTrue();
        assertThat(map.metadata().columnName(12)).isEqualTo("cm");
        assertThat(map.metadata().primaryKey()).containsExactly(0);
        assertThat(context.tableMap(TestEvents.SAMPLE_TABLE_ID)).isSameAs(map);

        RowsEvent rows = (RowsEvent) events.get(4);
        assertThat(rows.kind()).isEqualTo(RowsEvent.Kind.WRITE);
        assertThat(rows.version()).isEqualTo(2);
        assertThat(rows.columnsBefore()).isNull();
        assertThat(RowsDecoder.decode(rows, map)).singleElement().satisfies(row -> {
            assertThat(row.before()).isNull();
            assertThat(row.after()).containsExactly(42L, "abc".getBytes(), new BigDecimal("1234.56"),
                    new DatetimeValue(2024, 1, 2, 3, 4, 5, 123456, 6), new TimestampValue(1_700_000_000L, 123000, 3),
                    new TimeValue(false, 1, 2, 3, 500000, 3), "blob".getBytes(), "{\"a\": 1}", 2, 0x1555L, 2.5d, 2024,
                    new DateValue(2024, 2, 29));
        });
        assertThat(((XidEvent) events.get(5)).xid()).isEqualTo(99);
    }

    @Test
    void statementTextIsDecodedWithTheClientCharset() {
        byte[] gbkClient = new Bytes().u8(4).u16(28).u16(28).u16(8).toArray();
        byte[] sql = "INSERT INTO t VALUES ('中文')".getBytes(java.nio.charset.Charset.forName("GBK"));
        byte[] event = TestEvents.event(EventType.QUERY, new Bytes().u32(1).u32(0).u8(0).u16(0).u16(gbkClient.length)
                .bytes(gbkClient).u8(0).bytes(sql).toArray());
        assertThat(((QueryEvent) new DecoderContext().decode(event)).sql()).isEqualTo("INSERT INTO t VALUES ('中文')");
    }

    @Test
    void unknownStatusVariableStopsParsingButKeepsSchemaAndSql() {
        byte[] status = new Bytes().u8(0).u32(0x4000).u8(200).u32(0xDEADBEEF).toArray();
        DecoderContext context = new DecoderContext();
        QueryEvent q = (QueryEvent) context.decode(TestEvents.query("shop", "CREATE TABLE t (a INT)", status));
        assertThat(q.statusVariables().flags2()).isEqualTo(0x4000);
        assertThat(q.statusVariables().unknownCode()).isEqualTo(200);
        assertThat(q.schema()).isEqualTo("shop");
        assertThat(q.sql()).isEqualTo("CREATE TABLE t (a INT)");
    }
}
