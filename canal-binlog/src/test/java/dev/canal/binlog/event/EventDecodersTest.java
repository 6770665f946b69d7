package dev.canal.binlog.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import dev.canal.binlog.io.MalformedDataException;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** Event kinds the corpus has few or no examples of, built byte by byte. */
class EventDecodersTest {

    private final DecoderContext context = new DecoderContext();

    private BinlogEvent decode(int type, Bytes body) {
        return context.decode(TestEvents.event(type, body.toArray()));
    }

    @Test
    void mariaDbGtidCarriesDomainSequenceCommitIdOrXaXid() {
        MariaGtidEvent plain = (MariaGtidEvent) decode(EventType.MARIA_GTID,
                new Bytes().u64(42).u32(3).u8(MariaGtidEvent.FL_STANDALONE).bytes(new byte[6]));
        assertThat(plain.gtid()).isEqualTo("3-" + TestEvents.SERVER_ID + "-42");
        assertThat(plain.standalone()).isTrue();
        assertThat(plain.commitId()).isEqualTo(-1);

        MariaGtidEvent grouped = (MariaGtidEvent) decode(EventType.MARIA_GTID,
                new Bytes().u64(43).u32(0).u8(MariaGtidEvent.FL_GROUP_COMMIT_ID).u64(1234));
        assertThat(grouped.commitId()).isEqualTo(1234);

        MariaGtidEvent xa = (MariaGtidEvent) decode(EventType.MARIA_GTID, new Bytes().u64(44).u32(0)
                .u8(MariaGtidEvent.FL_PREPARED_XA).u32(7).u8(2).u8(1).str("xab"));
        assertThat(xa.xid().toSql()).isEqualTo("X'7861',X'62',7");
    }

    @Test
    void mariaDbGtidListAndCheckpointAndAnnotate() {
        MariaGtidListEvent list = (MariaGtidListEvent) decode(EventType.MARIA_GTID_LIST,
                new Bytes().u32(2).u32(0).u32(1).u64(100).u32(1).u32(2).u64(7));
        assertThat(list.gtids()).extracting(Object::toString).containsExactly("0-1-100", "1-2-7");
        BinlogCheckpointEvent checkpoint = (BinlogCheckpointEvent) decode(EventType.MARIA_BINLOG_CHECKPOINT,
                new Bytes().u32(16).str("mysql-bin.000042"));
        assertThat(checkpoint.file()).isEqualTo("mysql-bin.000042");
        AnnotateRowsEvent annotate = (AnnotateRowsEvent) decode(EventType.MARIA_ANNOTATE_ROWS,
                new Bytes().str("INSERT INTO t VALUES (1)"));
        assertThat(annotate.query()).isEqualTo("INSERT INTO t VALUES (1)");
    }

    @Test
    void mariaDbStartEncryptionSaysEncryptedBinlogsAreNotSupported() {
        assertThatThrownBy(() -> decode(EventType.MARIA_START_ENCRYPTION, new Bytes().u8(1).u32(1).bytes(new byte[12])))
                .isInstanceOf(UnsupportedBinlogException.class).hasMessageContaining("encrypted binlog not supported");
    }

    @Test
    void mariaDbCompressedQueryAndRowsInflate() {
        byte[] sql = "CREATE TABLE t (a INT) COMMENT 'compressed'".getBytes();
        Bytes body = new Bytes().u32(1).u32(0).u8(2).u16(0).u16(0).str("db").u8(0).bytes(mariaCompress(sql));
        QueryEvent q = (QueryEvent) decode(EventType.MARIA_QUERY_COMPRESSED, body);
        assertThat(q.sql()).isEqualTo(new String(sql));

        context.decode(TestEvents.tableMap(5, "db", "t", new int[] {3}, new byte[0], new byte[0]));
        byte[] rows = new Bytes().u8(0).u32(7).u8(0).u32(8).toArray();
        Bytes rowsBody = new Bytes().u48(5).u16(1).lenenc(1).u8(1).bytes(mariaCompress(rows));
        RowsEvent event = (RowsEvent) context.decode(TestEvents.event(EventType.MARIA_WRITE_ROWS_COMPRESSED_V1,
                rowsBody.toArray()));
        assertThat(RowsDecoder.decode(event, context.tableMap(5))).extracting(r -> r.after()[0])
                .containsExactly(7L, 8L);
    }

    @Test
    void transactionPayloadDecompressesAndDecodesItsEvents() {
        byte[] inner1 = TestEvents.query("db", "BEGIN", new byte[0]);
        byte[] inner2 = TestEvents.event(EventType.XID, new Bytes().u64(5).toArray());
        byte[] plain = new Bytes().bytes(inner1).bytes(inner2).toArray();
        byte[] compressed = Zstd.compress(plain);
        Bytes body = new Bytes().lenenc(1).lenenc(lenencSize(compressed.length)).lenenc(compressed.length)
                .lenenc(2).lenenc(1).lenenc(0)
                .lenenc(3).lenenc(lenencSize(plain.length)).lenenc(plain.length)
                .lenenc(0).bytes(compressed);
        TransactionPayloadEvent payload = (TransactionPayloadEvent) decode(EventType.TRANSACTION_PAYLOAD, body);
        assertThat(payload.uncompressedSize()).isEqualTo(plain.length);
        assertThat(payload.events()).extracting(e -> e.header().typeName()).containsExactly("QUERY", "XID");
        assertThat(((XidEvent) payload.events().get(1)).xid()).isEqualTo(5);
    }

    @Test
    void heartbeatsCarryFileAndPosition() {
        HeartbeatEvent v1 = (HeartbeatEvent) decode(EventType.HEARTBEAT, new Bytes().str("binlog.000007"));
        assertThat(v1.logFile()).isEqualTo("binlog.000007");
        assertThat(v1.position()).isEqualTo(v1.header().nextPosition());
        HeartbeatEvent v2 = (HeartbeatEvent) decode(EventType.HEARTBEAT_V2, new Bytes().u8(1).lenenc(13)
                .str("binlog.000008").u8(2).lenenc(4).lenenc(70000).u8(0));
        assertThat(v2.logFile()).isEqualTo("binlog.000008");
        assertThat(v2.position()).isEqualTo(70000);
        assertThat(v2.v2()).isTrue();
    }

    @Test
    void smallEventsDecode() {
        assertThat(((RotateEvent) decode(EventType.ROTATE, new Bytes().u64(4).str("binlog.000002"))).nextFile())
                .isEqualTo("binlog.000002");
        assertThat(((IntVarEvent) decode(EventType.INTVAR, new Bytes().u8(2).u64(6))).kindName()).isEqualTo("INSERT_ID");
        assertThat(((RandEvent) decode(EventType.RAND, new Bytes().u64(1).u64(2))).seed2()).isEqualTo(2);
        assertThat(((IncidentEvent) decode(EventType.INCIDENT, new Bytes().u16(1).u8(4).str("lost"))).message())
                .isEqualTo("lost");
        assertThat(((RowsQueryEvent) decode(EventType.ROWS_QUERY, new Bytes().u8(3).str("DELETE"))).query())
                .isEqualTo("DELETE");
        XaPrepareEvent xa = (XaPrepareEvent) decode(EventType.XA_PREPARE, new Bytes().u8(1).u32(1).u32(3).u32(0)
                .str("xa1"));
        assertThat(xa.onePhase()).isTrue();
        assertThat(xa.xid().toSql()).isEqualTo("X'786131',X'',1");
        UserVarEvent user = (UserVarEvent) decode(EventType.USER_VAR, new Bytes().u32(1).str("n").u8(0)
                .u8(UserVarEvent.INT).u32(63).u32(8).u64(-1).u8(1));
        assertThat(user.value()).isEqualTo(-1L);
        assertThat(user.unsigned()).isTrue();
        assertThat(decode(EventType.STOP, new Bytes())).isInstanceOf(StopEvent.class);
    }

    @Test
    void unknownTypesAreSkippedByLengthNotFatal() {
        BinlogEvent e = decode(100, new Bytes().bytes(new byte[30]));
        assertThat(e).isInstanceOf(UnknownEvent.class);
        assertThat(((UnknownEvent) e).bodyLength()).isEqualTo(30);
        assertThat(decode(EventType.BEGIN_LOAD_QUERY, new Bytes().u32(1))).isInstanceOf(UnknownEvent.class);
    }

    @Test
    void previousGtidsRenderAsMySqlsGtidSetText() {
        PreviousGtidsEvent e = (PreviousGtidsEvent) decode(EventType.PREVIOUS_GTIDS, new Bytes().u64(1)
                .be(0x94d47226ebec11f1L, 8).be(0x9c9d02fc00000001L, 8).u64(2).u64(1).u64(6).u64(8).u64(9));
        assertThat(e.gtidSet()).isEqualTo("94d47226-ebec-11f1-9c9d-02fc00000001:1-5:8");
    }

    @Test
    void checksumOfTheStreamIsStrippedOnceTheFormatDescriptionSaysCrc32() {
        DecoderContext crc = new DecoderContext();
        crc.decode(TestEvents.formatDescription("8.0.36", true));
        XidEvent xid = (XidEvent) crc.decode(TestEvents.event(EventType.XID, new Bytes().u64(9).toArray(), true));
        assertThat(xid.xid()).isEqualTo(9);
        RotateEvent early = (RotateEvent) new DecoderContext(true).decode(TestEvents.event(EventType.ROTATE,
                new Bytes().u64(4).str("binlog.000001").toArray(), true));
        assertThat(early.nextFile()).isEqualTo("binlog.000001");
    }

    @Test
    void formatDescriptionsOfOldServersHaveNoChecksumTrailer() {
        assertThat(FormatDescriptionEventDecoder.writesChecksumTrailer("5.6.0-log")).isFalse();
        assertThat(FormatDescriptionEventDecoder.writesChecksumTrailer("5.6.1")).isTrue();
        assertThat(FormatDescriptionEventDecoder.writesChecksumTrailer("5.5.36-MariaDB-log")).isTrue();
        assertThat(FormatDescriptionEventDecoder.writesChecksumTrailer("5.2.9-MariaDB")).isFalse();
        assertThat(FormatDescriptionEventDecoder.writesChecksumTrailer("10.11.6-MariaDB-log")).isTrue();
    }

    @Test
    void eventLengthMustMatchTheBytesGiven() {
        byte[] xid = TestEvents.event(EventType.XID, new Bytes().u64(1).toArray());
        assertThatThrownBy(() -> context.decode(xid, 0, xid.length - 1)).isInstanceOf(MalformedDataException.class)
                .hasMessageContaining("header says 27 bytes but the event has 26");
    }

    private static int lenencSize(long v) {
        return v < 251 ? 1 : v < 1 << 16 ? 3 : v < 1 << 24 ? 4 : 9;
    }

    /** MariaDB's binlog compression: header 0x80 | length width, big-endian length, zlib stream. */
    private static byte[] mariaCompress(byte[] data) {
        Deflater deflater = new Deflater();
        deflater.setInput(data);
        deflater.finish();
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        byte[] buf = new byte[256];
        while (!deflater.finished()) {
            z.write(buf, 0, deflater.deflate(buf));
        }
        deflater.end();
        return new Bytes().u8(0x80 | 2).be(data.length, 2).bytes(z.toByteArray()).toArray();
    }

}
