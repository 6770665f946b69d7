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
    void int32AndUint32AreProtobufsEncodingsAcrossEveryLength() throws IOException {
        long seed = System.nanoTime();
        System.out.println("ProtoBytesTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = -40; i < 20_000; i++) {
            int value = i < 300 ? i : random.nextInt() >> random.nextInt(32);
            ProtoBytes ours = new ProtoBytes(1);
            ours.int32(value);
            if (value >= 0) {
                ours.uint32(value);
            }
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            CodedOutputStream theirs = CodedOutputStream.newInstance(expected);
            theirs.writeInt32NoTag(value);
            if (value >= 0) {
                theirs.writeUInt32NoTag(value);
            }
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

    @Test
    void tagAndBoolIsProtobufsBoolField() throws IOException {
        for (boolean value : new boolean[] {true, false}) {
            ProtoBytes ours = new ProtoBytes(1);
            ours.uint32(300); // the buffer must grow and keep what was there
            ours.tagAndBool(6, value);
            ByteArrayOutputStream theirs = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(theirs);
            out.writeUInt32NoTag(300);
            out.writeBool(6, value);
            out.flush();
            assertThat(ours.toByteArray()).isEqualTo(theirs.toByteArray());
        }
    }
}
