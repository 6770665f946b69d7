package dev.canal.binlog.file;

import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.EventHeader;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.FormatDescriptionEvent;
import dev.canal.binlog.event.UnsupportedBinlogException;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Reads a local binlog or relay-log file event by event: checks the magic bytes, reads each event by the length
 * in its header, verifies its CRC32 when the FORMAT_DESCRIPTION says the file has checksums, and decodes it.
 * Files ending in {@code .gz} are read through gzip. Binlog format v1 and v3 (MySQL 3.23 and 4.x) and encrypted
 * binlogs are refused with a message saying so.
 *
 * <p>Every failure is a {@link BinlogFileException} naming the file and the offset of the event that failed.
 */
public final class BinlogFileReader implements Closeable {

    /** {@code 0xfe 'b' 'i' 'n'}. */
    private static final byte[] MAGIC = {(byte) 0xFE, 'b', 'i', 'n'};
    /** MySQL 8.0.14+ encrypted binlog files start with {@code 0xfd 'b' 'i' 'n'}. */
    private static final int ENCRYPTED_MAGIC_BYTE = 0xFD;
    /** Events cannot exceed max_allowed_packet's ceiling of 1 GiB. */
    private static final long MAX_EVENT_LENGTH = 1L << 30;
    private static final int LENGTH_OFFSET = 9;
    private static final int BINLOG_V1_HEADER = 13;
    /** START_EVENT_V3 body: binlog version (2), server version (50), creation time (4). */
    private static final int START_V3_BODY = 56;
    private static final int BUFFER_SIZE = 1 << 16;

    private final String name;
    private final InputStream in;
    private final DecoderContext context;
    private long nextPosition = MAGIC.length;
    private long eventPosition;
    private boolean first = true;

    private BinlogFileReader(String name, InputStream in, DecoderContext context) {
        this.name = name;
        this.in = in;
        this.context = context;
    }

    /** Opens a file and checks its magic bytes. */
    public static BinlogFileReader open(Path file) throws IOException {
        InputStream raw = Files.newInputStream(file);
        try {
            InputStream in = file.getFileName().toString().endsWith(".gz")
                    ? new BufferedInputStream(new GZIPInputStream(raw, BUFFER_SIZE), BUFFER_SIZE)
                    : new BufferedInputStream(raw, BUFFER_SIZE);
            return open(file.toString(), in);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** Reads a binlog from a stream (closed with this reader) and checks its magic bytes. */
    public static BinlogFileReader open(String name, InputStream in) throws IOException {
        BinlogFileReader reader = new BinlogFileReader(name, in, new DecoderContext());
        reader.checkMagic();
        return reader;
    }

    public DecoderContext context() {
        return context;
    }

    /** File offset of the event last returned by {@link #next()}. */
    public long position() {
        return eventPosition;
    }

    public String name() {
        return name;
    }

    /**
     * The next event, or null at the end of the file.
     *
     * @throws BinlogFileException when the file cannot be read on
     */
    public BinlogEvent next() throws IOException {
        eventPosition = nextPosition;
        byte[] header = in.readNBytes(EventHeader.V4_LENGTH);
        if (header.length == 0) {
            return null;
        }
        if (header.length < EventHeader.V4_LENGTH) {
            throw fail("truncated event header: the file ends " + header.length + " bytes after the last event", null);
        }
        long length = new LittleEndianCursor(header, LENGTH_OFFSET, 4).uint32();
        int type = header[4] & 0xFF;
        if (first) {
            first = false;
            checkFirstEvent(type, length, header);
        }
        if (length < EventHeader.V4_LENGTH || length > MAX_EVENT_LENGTH) {
            throw fail(EventType.name(type) + " event header gives an impossible length of " + length + " bytes", null);
        }
        byte[] event = new byte[(int) length];
        System.arraycopy(header, 0, event, 0, header.length);
        int rest = (int) length - header.length;
        int read = in.readNBytes(event, header.length, rest);
        if (read < rest) {
            throw fail("truncated " + EventType.name(type) + " event: its header says " + length
                    + " bytes, the file ends after " + (header.length + read), null);
        }
        nextPosition += length;
        try {
            if (type == EventType.FORMAT_DESCRIPTION) {
                BinlogEvent fde = context.decode(event, 0, event.length);
                if (((FormatDescriptionEvent) fde).hasCrc32()) {
                    BinlogChecksum.verify(event, 0, event.length);
                }
                return fde;
            }
            if (context.formatDescription().hasCrc32()) {
                BinlogChecksum.verify(event, 0, event.length);
            }
            return context.decode(event, 0, event.length);
        } catch (MalformedDataException | UnsupportedBinlogException e) {
            throw fail(EventType.name(type) + " event: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private void checkMagic() throws IOException {
        byte[] magic = in.readNBytes(MAGIC.length);
        eventPosition = 0;
        if (magic.length == MAGIC.length && (magic[0] & 0xFF) == ENCRYPTED_MAGIC_BYTE && magic[1] == 'b'
                && magic[2] == 'i' && magic[3] == 'n') {
            throw fail("encrypted binlog not supported (MySQL binlog_encryption=ON; magic fd 62 69 6e)",
                    new UnsupportedBinlogException("encrypted binlog"));
        }
        if (!Arrays.equals(magic, MAGIC)) {
            throw fail("not a binlog file: it starts with " + hex(magic) + " instead of fe 62 69 6e", null);
        }
    }

    /** The first event must describe the format; a START_EVENT_V3 means a binlog older than v4. */
    private void checkFirstEvent(int type, long length, byte[] header) throws IOException {
        if (type == EventType.START_V3) {
            // v1 (3.23) has a 13-byte header, so its start event is 6 bytes shorter and its body starts earlier.
            int version;
            if (length == BINLOG_V1_HEADER + START_V3_BODY) {
                version = (header[BINLOG_V1_HEADER] & 0xFF) | (header[BINLOG_V1_HEADER + 1] & 0xFF) << 8;
            } else {
                byte[] body = in.readNBytes(2);
                version = body.length == 2 ? (body[0] & 0xFF) | (body[1] & 0xFF) << 8 : -1;
            }
            throw fail("binlog format v" + version + " (MySQL " + (version == 1 ? "3.23" : "4.x")
                    + " START_EVENT_V3) is not supported: only binlog format v4 (MySQL 5.0+, MariaDB) is read",
                    new UnsupportedBinlogException("binlog format v" + version));
        }
        if (type != EventType.FORMAT_DESCRIPTION) {
            throw fail("the first event is " + EventType.name(type) + ", not a FORMAT_DESCRIPTION", null);
        }
    }

    private BinlogFileException fail(String message, Throwable cause) {
        return new BinlogFileException(name, eventPosition, message, cause);
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format("%02x", b & 0xFF));
        }
        return bytes.length == 0 ? "nothing (empty file)" : sb.toString();
    }
}
