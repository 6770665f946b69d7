package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-written varints must be protobuf's own encodings of the same values. */
class ProtoBytesTest {

    @Test
    void uint32IsProtobufsEncodingAcrossEveryLength() throws IOException {
        long seed = System.nanoTime();
        System.out.println("ProtoBytesTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 20_000; i++) {
            int value = i < 300 ? i : random.nextInt() >>> random.nextInt(32);
            ProtoBytes ours = new ProtoBytes(1);
            ours.uint32(value);
            ours.uint32(value);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            CodedOutputStream theirs = CodedOutputStream.newInstance(expected);
            theirs.writeUInt32NoTag(value);
            theirs.writeUInt32NoTag(value);
            theirs.flush();
            assertThat(ours.toByteArray()).as("%d", value).isEqualTo(expected.toByteArray());
        }
    }

    @Test
    void int64IsProtobufsEncoding() throws IOException {
        long seed = System.nanoTime();
        System.out.println("ProtoBytesTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 20_000; i++) {
            long value = random.nextLong() >> random.nextInt(64);
            ProtoBytes ours = new ProtoBytes(1);
            ours.int64(value);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            CodedOutputStream theirs = CodedOutputStream.newInstance(expected);
            theirs.writeInt64NoTag(value);
            theirs.flush();
            assertThat(ours.toByteArray()).as("%d", value).isEqualTo(expected.toByteArray());
        }
    }
}
