package dev.canal.binlog.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** ANNOTATE_ROWS / ROWS_QUERY texts kept as bytes must still give exactly what decoding them to a String gave. */
class StatementTextTest {

    private static final int[] CHUNKS = {2, 3, 7, 64, StatementText.CHUNK_CHARS};

    /** What the QUERY entry's sql bytes were when the text was decoded into a String first. */
    private static byte[] viaString(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }

    private static void assertSameAsViaString(byte[] bytes) {
        StatementText text = new StatementText(bytes, 0, bytes.length);
        assertThat(text.asString()).isEqualTo(new String(bytes, StandardCharsets.UTF_8));
        for (int chunk : CHUNKS) {
            assertThat(text.utf8(chunk).toByteArray()).as("chunks of %d chars", chunk).isEqualTo(viaString(bytes));
        }
    }

    @Test
    void validUtf8IsTheEventsOwnBytesUnchanged() {
        byte[] event = ("xxINSERT INTO t VALUES ('caf\u00e9', '\u4e2d\u6587', '\ud83d\ude00')yy")
                .getBytes(StandardCharsets.UTF_8);
        StatementText text = new StatementText(event, 2, event.length - 4);
        assertThat(text.asString()).isEqualTo("INSERT INTO t VALUES ('caf\u00e9', '\u4e2d\u6587', '\ud83d\ude00')");
        assertThat(text.utf8()).isEqualTo(ByteString.copyFrom(event, 2, event.length - 4));
        assertSameAsViaString("plain ASCII".getBytes(StandardCharsets.US_ASCII));
        assertSameAsViaString("multibyte \u00e9\u4e2d\ud83d\ude00 and more".getBytes(StandardCharsets.UTF_8));
        assertSameAsViaString(new byte[0]);
    }

    @Test
    void malformedSequencesBecomeTheSameReplacementsAsInAString() {
        int[][] cases = {
                {0x41, 0x80, 0x42}, // lone continuation byte
                {0xC0, 0x80}, // overlong NUL
                {0xE2, 0x82}, // truncated at the end
                {0xE2, 0x82, 0x41}, // truncated before ASCII
                {0xED, 0xA0, 0x80}, // an encoded surrogate
                {0xF4, 0x90, 0x80, 0x80}, // beyond U+10FFFF
                {0xF0, 0x9F, 0x98}, // truncated 4-byte sequence at the end
                {0xF0, 0x9F, 0x98, 0x80, 0xF0, 0x9F}, // a whole one, then a truncated one
                {0xFF, 0xFE, 0x27, 0x5C, 0x00}, // bytes that can never start a sequence, then ASCII
        };
        for (int[] c : cases) {
            byte[] bytes = new byte[c.length];
            for (int i = 0; i < c.length; i++) {
                bytes[i] = (byte) c[i];
            }
            assertSameAsViaString(bytes);
        }
    }

    @Test
    void randomBinaryTextsTranscodeExactlyAtEveryChunkSize() {
        long seed = System.nanoTime();
        System.out.println("StatementTextTest seed " + seed);
        Random random = new Random(seed);
        byte[] emoji = "\ud83d\ude00\u4e2d".getBytes(StandardCharsets.UTF_8);
        for (int round = 0; round < 200; round++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            if (round % 2 == 0 && bytes.length > emoji.length) { // valid multibyte characters among the noise
                System.arraycopy(emoji, 0, bytes, random.nextInt(bytes.length - emoji.length), emoji.length);
            }
            assertSameAsViaString(bytes);
        }
    }

    @Test
    void annotateAndRowsQueryEventsGiveTheUtf8OfTheirDecodedText() {
        DecoderContext context = new DecoderContext();
        byte[] sql = new Bytes().str("INSERT INTO t VALUES (_binary'").bytes(0xFF, 0xC3, 0x28, 0xE9).str("\u00e9')")
                .toArray();
        AnnotateRowsEvent annotate = (AnnotateRowsEvent) context.decode(
                TestEvents.event(EventType.MARIA_ANNOTATE_ROWS, sql));
        RowsQueryEvent rowsQuery = (RowsQueryEvent) context.decode(
                TestEvents.event(EventType.ROWS_QUERY, new Bytes().u8(sql.length).bytes(sql).toArray()));
        ByteString decodedText = ByteString.copyFromUtf8(new String(sql, StandardCharsets.UTF_8));
        for (StatementText text : new StatementText[] {annotate.statement(), rowsQuery.statement()}) {
            assertThat(text.utf8()).isEqualTo(decodedText);
        }
        assertThat(annotate.query()).isEqualTo(rowsQuery.query()).isEqualTo(new String(sql, StandardCharsets.UTF_8));
    }
}
