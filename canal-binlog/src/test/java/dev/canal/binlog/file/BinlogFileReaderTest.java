package dev.canal.binlog.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.Bytes;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.FormatDescriptionEvent;
import dev.canal.binlog.event.TestEvents;
import dev.canal.binlog.event.UnsupportedBinlogException;
import dev.canal.binlog.event.XidEvent;
import dev.canal.binlog.io.MalformedDataException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BinlogFileReaderTest {

    private static final byte[] MAGIC = {(byte) 0xFE, 'b', 'i', 'n'};

    private static byte[] file(byte[]... events) {
        Bytes b = new Bytes().bytes(MAGIC);
        for (byte[] e : events) {
            b.bytes(e);
        }
        return b.toArray();
    }

    private static List<BinlogEvent> readAll(String name, byte[] bytes) throws IOException {
        List<BinlogEvent> events = new ArrayList<>();
        try (BinlogFileReader reader = BinlogFileReader.open(name, new ByteArrayInputStream(bytes))) {
            BinlogEvent e;
            while ((e = reader.next()) != null) {
                events.add(e);
            }
        }
        return events;
    }

    private static byte[] xid(long xid) {
        return TestEvents.event(EventType.XID, new Bytes().u64(xid).toArray(), true);
    }

    @Test
    void readsEventsInOrderAndReportsEachOffset() throws IOException {
        byte[] fde = TestEvents.formatDescription("8.0.36", true);
        byte[] bytes = file(fde, xid(1), xid(2));
        try (BinlogFileReader reader = BinlogFileReader.open("f", new ByteArrayInputStream(bytes))) {
            assertThat(reader.next()).isInstanceOf(FormatDescriptionEvent.class);
            assertThat(reader.position()).isEqualTo(4);
            assertThat(((XidEvent) reader.next()).xid()).isEqualTo(1);
            assertThat(reader.position()).isEqualTo(4 + fde.length);
            assertThat(((XidEvent) reader.next()).xid()).isEqualTo(2);
            assertThat(reader.next()).isNull();
        }
    }

    @Test
    void aCorruptByteFailsTheChecksumNamingFileAndOffset() {
        byte[] fde = TestEvents.formatDescription("8.0.36", true);
        byte[] bad = xid(7);
        bad[20] ^= 1;
        assertThatThrownBy(() -> readAll("mysql-bin.000001", file(fde, xid(1), bad)))
                .isInstanceOf(BinlogFileException.class)
                .hasMessage("mysql-bin.000001 at offset " + (4 + fde.length + 31) + ": XID event: CRC32 mismatch: event"
                        + " says 0x" + Long.toHexString(crcOf(bad)) + ", bytes give 0x" + Long.toHexString(realCrc(bad)))
                .hasCauseInstanceOf(MalformedDataException.class);
    }

    @Test
    void formatDescriptionChecksumIgnoresTheInUseFlag() throws IOException {
        byte[] fde = TestEvents.formatDescription("8.0.36", true);
        fde[17] |= 1; // LOG_EVENT_BINLOG_IN_USE_F set after the checksum was computed
        assertThat(readAll("f", file(fde, xid(1)))).hasSize(2);
    }

    @Test
    void truncatedEventsAndHeadersAreReportedAsSuch() {
        byte[] fde = TestEvents.formatDescription("8.0.36", true);
        byte[] cut = Arrays.copyOf(xid(1), 25);
        assertThatThrownBy(() -> readAll("f", file(fde, cut))).isInstanceOf(BinlogFileException.class)
                .hasMessageContaining("truncated XID event: its header says 31 bytes, the file ends after 25");
        assertThatThrownBy(() -> readAll("f", file(fde, Arrays.copyOf(xid(1), 10))))
                .hasMessageContaining("at offset " + (4 + fde.length) + ": truncated event header");
    }

    @Test
    void refusesFilesThatAreNotV4Binlogs() {
        assertThatThrownBy(() -> readAll("x", "not a binlog".getBytes())).isInstanceOf(BinlogFileException.class)
                .hasMessage("x at offset 0: not a binlog file: it starts with 6e 6f 74 20 instead of fe 62 69 6e");
        assertThatThrownBy(() -> readAll("enc", new byte[] {(byte) 0xFD, 'b', 'i', 'n', 0, 0}))
                .hasMessageContaining("encrypted binlog not supported").hasCauseInstanceOf(UnsupportedBinlogException.class);
        byte[] startV3 = TestEvents.event(EventType.START_V3, new Bytes().u16(3).bytes(new byte[50]).u32(0).toArray());
        assertThatThrownBy(() -> readAll("old", file(startV3)))
                .hasMessage("old at offset 4: binlog format v3 (MySQL 4.x START_EVENT_V3) is not supported: only binlog"
                        + " format v4 (MySQL 5.0+, MariaDB) is read");
        // MySQL 3.23: binlog format v1, 13-byte event headers
        byte[] startV1 = new Bytes().u32(TestEvents.TIMESTAMP).u8(EventType.START_V3).u32(1).u32(13 + 56).u16(1)
                .bytes(new byte[50]).u32(0).toArray();
        assertThatThrownBy(() -> readAll("v1", file(startV1)))
                .hasMessageStartingWith("v1 at offset 4: binlog format v1 (MySQL 3.23 START_EVENT_V3) is not supported");
        assertThatThrownBy(() -> readAll("nofde", file(xid(1))))
                .hasMessageContaining("the first event is XID, not a FORMAT_DESCRIPTION");
    }

    @Test
    void gzipFilesAreReadThroughGzip(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(file(TestEvents.formatDescription("8.0.36", true), xid(3)));
        }
        Path file = dir.resolve("binlog.000001.gz");
        Files.write(file, gz.toByteArray());
        try (BinlogFileReader reader = BinlogFileReader.open(file)) {
            reader.next();
            assertThat(((XidEvent) reader.next()).xid()).isEqualTo(3);
        }
    }

    private static long crcOf(byte[] event) {
        int n = event.length;
        return (event[n - 4] & 0xFFL) | (event[n - 3] & 0xFFL) << 8 | (event[n - 2] & 0xFFL) << 16
                | (event[n - 1] & 0xFFL) << 24;
    }

    private static long realCrc(byte[] event) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(event, 0, event.length - 4);
        return crc.getValue();
    }
}
