package dev.canal.binlog.net;

import dev.canal.binlog.io.MalformedDataException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The events of a binlog dump, one whole event (19-byte header, body, checksum if any; without the protocol's 0x00
 * marker) per {@link #next()} call, checksum verified. The only allocation per event is the event's own array;
 * events over 16 MiB are reassembled into it as their pieces arrive (doubling it when needed), and one longer than
 * the connection's maximum packet size is refused before it is read.
 *
 * <p>Whether events carry a CRC32 is decided per binlog file, as the server sends them as they were written: the
 * session's {@code binlog_checksum} until the first FORMAT_DESCRIPTION event, then the algorithm each
 * FORMAT_DESCRIPTION announces (the ROTATE events between files follow the file before). {@link #checksumLength()}
 * tells the decoder, event by event, how many trailing bytes to leave out.
 *
 * <p>Reader thread only, except {@link #close()}, which another thread may call to stop a blocked reader (it then
 * gets a {@link ConnectionLostException}).
 */
public final class BinlogStream implements Closeable {

    private static final int OK = 0x00;
    private static final int EOF = 0xFE;
    private static final int MAX_EOF_LENGTH = 9;
    private static final int ROTATE_EVENT = 4;
    private static final int ROTATE_POSITION_LENGTH = 8;

    private final PacketChannel channel;
    private final EventChecksum checksum = new EventChecksum();
    private BinlogChecksumType fileChecksum; // of the events until the next FORMAT_DESCRIPTION
    private int lastChecksumLength;
    private final String start;
    private final byte[] header = new byte[EventChecksum.HEADER_LENGTH]; // reader thread only
    private String file;
    private long nextPosition;
    private boolean ended;
    /** Events whose first packet has this many bytes or more pass {@link #gate} before they are read. */
    private int gatedFrom = Integer.MAX_VALUE;
    private ReadGate gate;

    /** What the reader waits on before it reads a large event (see {@link #gateLargeEvents}). */
    @FunctionalInterface
    public interface ReadGate {

        /**
         * Returns once an event of at least {@code bytes} may be read; on an interrupt it returns at once with the
         * thread's interrupt status set, for whoever takes the event to act on.
         */
        void awaitRoomFor(long bytes);
    }

    BinlogStream(PacketChannel channel, BinlogChecksumType checksumType, String file, String start) {
        this.channel = channel;
        this.fileChecksum = checksumType;
        this.file = file;
        this.start = start;
    }

    /**
     * From now on, before it reads an event whose first packet holds {@code minBytes} or more, waits on {@code gate}:
     * whoever takes the events can thus hold back a large one while its bytes are still with the server, rather
     * than have it read and held while it cannot be taken. Reader thread only.
     */
    public void gateLargeEvents(int minBytes, ReadGate gate) {
        this.gate = gate;
        this.gatedFrom = minBytes;
    }

    /**
     * The next event, or null once the server has ended the stream with an EOF packet (non-blocking dumps).
     *
     * @throws MysqlServerException the server reported an error (e.g. 1236: binlog purged or not found)
     * @throws ConnectionLostException the connection ended or timed out
     * @throws BinlogChecksumException an event failed its CRC32
     */
    public byte[] next() throws IOException {
        if (ended) {
            return null;
        }
        try {
            return readNext();
        } catch (ConnectionLostException e) {
            ended = true;
            throw new ConnectionLostException(e.getMessage() + ", reading the binlog dump from " + start + where(), e);
        }
    }

    private byte[] readNext() throws IOException {
        int length = channel.readHeader();
        if (length == 0) {
            throw new MalformedDataException("empty packet in the binlog stream from " + channel.peer() + where());
        }
        int marker = channel.readByte();
        if (marker != OK) {
            return endOfStream(marker, length);
        }
        if (length - 1 >= gatedFrom) {
            gate.awaitRoomFor(length - 1);
        }
        byte[] event = readEvent(length - 1, length == PacketChannel.MAX_PAYLOAD);
        if (event[EventChecksum.TYPE_OFFSET] == EventChecksum.FORMAT_DESCRIPTION_EVENT) {
            checksum.verify(event, BinlogChecksumType.CRC32, file); // always checksummed itself
            lastChecksumLength = BinlogChecksumType.CRC32.length();
            fileChecksum = EventChecksum.announcedBy(event);
        } else {
            checksum.verify(event, fileChecksum, file);
            lastChecksumLength = fileChecksum.length();
        }
        track(event);
        return event;
    }

    /**
     * Bytes at the end of the event last returned that are its checksum, not its body (0 or 4; always 4 for a
     * FORMAT_DESCRIPTION event, whose checksum-algorithm byte comes just before).
     */
    public int checksumLength() {
        return lastChecksumLength;
    }

    /** The checksum algorithm of the events that follow in the current file. */
    public BinlogChecksumType checksumType() {
        return fileChecksum;
    }

    /** The binlog file the last event came from, as announced by ROTATE events (null before the first). */
    public String currentFile() {
        return file;
    }

    /** Next-position of the last event that carried one (0 before any). */
    public long nextPosition() {
        return nextPosition;
    }

    @Override
    public void close() {
        channel.close();
    }

    private byte[] endOfStream(int marker, int length) throws IOException {
        byte[] packet = new byte[length];
        packet[0] = (byte) marker;
        channel.readFully(packet, 1, length - 1);
        if (marker == MysqlServerException.ERROR_MARKER) {
            ended = true;
            throw MysqlServerException.fromPacket(packet, "binlog dump from " + start + " on " + channel.peer() + where());
        }
        if (marker == EOF && length < MAX_EOF_LENGTH) {
            ended = true;
            return null;
        }
        throw new MalformedDataException("unexpected packet 0x" + Integer.toHexString(marker) + " of " + length
                + " bytes in the binlog stream from " + channel.peer() + where());
    }

    private byte[] readEvent(int firstChunk, boolean continues) throws IOException {
        if (firstChunk < EventChecksum.HEADER_LENGTH) {
            throw new MalformedDataException("binlog event of " + firstChunk + " bytes is shorter than its header from "
                    + channel.peer() + where());
        }
        byte[] event;
        if (!continues) {
            channel.requireWithinMax(firstChunk);
            event = new byte[firstChunk];
            channel.readFully(event, 0, firstChunk);
            checkSize(event, firstChunk);
            return event;
        }
        // a packet of 16 MiB - 1 continues in the next: the event header says how long the event is, but the array
        // grows only as its pieces arrive, so a header that lies costs nothing
        channel.readFully(header, 0, header.length);
        long size = EventChecksum.uint32(header, EventChecksum.EVENT_SIZE_OFFSET);
        if (size < firstChunk) {
            throw new MalformedDataException("binlog event header claims " + size + " bytes but its first packet has "
                    + firstChunk + " from " + channel.peer() + where());
        }
        channel.requireWithinMax(size);
        event = new byte[(int) Math.min(size, 2L * firstChunk)];
        System.arraycopy(header, 0, event, 0, header.length);
        channel.readFully(event, header.length, firstChunk - header.length);
        int filled = firstChunk;
        int chunk = PacketChannel.MAX_PAYLOAD;
        while (chunk == PacketChannel.MAX_PAYLOAD) {
            chunk = channel.readHeader();
            if (chunk > size - filled) {
                throw new MalformedDataException("binlog event continues past its " + size + " bytes from "
                        + channel.peer() + where());
            }
            if (chunk > event.length - filled) {
                event = Arrays.copyOf(event, (int) Math.min(size, Math.max(2L * event.length, (long) filled + chunk)));
            }
            channel.readFully(event, filled, chunk);
            filled += chunk;
        }
        if (filled < event.length) {
            event = Arrays.copyOf(event, filled); // shorter than its header said: checkSize names both
        }
        checkSize(event, filled);
        return event;
    }

    private void checkSize(byte[] event, int received) {
        long declared = EventChecksum.uint32(event, EventChecksum.EVENT_SIZE_OFFSET);
        if (declared != received) {
            throw new MalformedDataException("binlog event header says " + declared + " bytes but " + received
                    + " arrived from " + channel.peer() + where());
        }
    }

    private void track(byte[] event) {
        long next = EventChecksum.uint32(event, EventChecksum.LOG_POS_OFFSET);
        if (next != 0) {
            nextPosition = next;
        }
        if (event[EventChecksum.TYPE_OFFSET] == ROTATE_EVENT) {
            int nameStart = EventChecksum.HEADER_LENGTH + ROTATE_POSITION_LENGTH;
            int nameLength = event.length - nameStart - lastChecksumLength;
            if (nameLength > 0) {
                file = new String(event, nameStart, nameLength, StandardCharsets.UTF_8);
                nextPosition = EventChecksum.uint32(event, EventChecksum.HEADER_LENGTH);
            }
        }
    }

    private String where() {
        return file == null ? "" : " at " + file + ":" + nextPosition;
    }
}
