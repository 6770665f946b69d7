package dev.canal.binlog.event;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The text of a statement as an ANNOTATE_ROWS or ROWS_QUERY event carries it, left undecoded: such a text holds
 * the statement's literals, so a row of a 16 MiB blob comes with a text of that size or more (docs/reliability.md,
 * scenario 9), and a decoded copy as a Java String would take up to twice as much again. {@code bytes} is the
 * event's own array, not a copy, as for {@link RowsEvent}: whoever reads events must not reuse it while the event
 * is in use.
 *
 * <p>Both views give what decoding the bytes as UTF-8, malformed sequences replaced by U+FFFD, would give.
 */
public record StatementText(byte[] bytes, int offset, int length) {

    /** Characters transcoded at a time when the bytes are not valid UTF-8. */
    static final int CHUNK_CHARS = 8192;

    public StatementText {
        if (offset < 0 || length < 0 || offset + length > bytes.length) {
            throw new IllegalArgumentException("bad slice offset " + offset + " length " + length + " of "
                    + bytes.length);
        }
    }

    /** The text decoded: each malformed UTF-8 sequence becomes U+FFFD. */
    public String asString() {
        return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }

    /**
     * The text as UTF-8, equal byte for byte to {@code asString().getBytes(UTF_8)}: the event's own bytes when they
     * are valid UTF-8 (no copy), else a transcoded copy made a chunk at a time, without a String of the whole.
     */
    public ByteString utf8() {
        return utf8(CHUNK_CHARS);
    }

    ByteString utf8(int chunkChars) {
        ByteString slice = UnsafeByteOperations.unsafeWrap(bytes, offset, length);
        if (slice.isValidUtf8()) {
            return slice;
        }
        byte[] out = new byte[transcode(null, chunkChars)];
        transcode(ByteBuffer.wrap(out), chunkChars);
        return UnsafeByteOperations.unsafeWrap(out);
    }

    /**
     * Decodes and re-encodes the text in chunks, into {@code sink} when not null; returns the encoded length. The
     * decoder writes a surrogate pair whole or not at all, so a chunk never ends inside a character.
     */
    private int transcode(ByteBuffer sink, int chunkChars) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder();
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
        CharBuffer chars = CharBuffer.allocate(chunkChars);
        ByteBuffer encoded = ByteBuffer.allocate(chunkChars * 3); // at most 3 bytes per UTF-16 unit
        int total = 0;
        boolean more = true;
        while (more) {
            more = decoder.decode(in, chars, true).isOverflow();
            if (!more) {
                decoder.flush(chars);
            }
            chars.flip();
            check(encoder.encode(chars, encoded, !more));
            if (!more) {
                check(encoder.flush(encoded));
            }
            chars.clear();
            encoded.flip();
            total += encoded.remaining();
            if (sink != null) {
                sink.put(encoded);
            }
            encoded.clear();
        }
        return total;
    }

    private static void check(CoderResult result) {
        if (result.isError() || result.isOverflow()) {
            try {
                result.throwException();
            } catch (CharacterCodingException e) {
                throw new IllegalStateException("re-encoding decoded UTF-8 failed: " + result, e);
            }
        }
    }
}
