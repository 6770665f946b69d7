package dev.canal.binlog.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LittleEndianCursorTest {

    private static LittleEndianCursor cursor(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return new LittleEndianCursor(b);
    }

    @Test
    void readsLittleEndianIntegersOfEveryWidth() {
        LittleEndianCursor c = cursor(0xFF, 0x34, 0x12, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12);
        assertThat(c.int8()).isEqualTo(-1);
        assertThat(c.uint16()).isEqualTo(0x1234);
        assertThat(c.uint24()).isEqualTo(0x123456);
        assertThat(c.uint32()).isEqualTo(0x12345678L);
        assertThat(c.hasRemaining()).isFalse();
    }

    @Test
    void signedReadsExtendTheSign() {
        assertThat(cursor(0xFF, 0xFF).int16()).isEqualTo(-1);
        assertThat(cursor(0x00, 0x00, 0x80).int24()).isEqualTo(-8388608);
        assertThat(cursor(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF).int64()).isEqualTo(-1L);
    }

    @Test
    void bigEndianReadsAreForDecimalAndTemporalTypes() {
        assertThat(cursor(0x80, 0x00, 0x01).uintBigEndian(3)).isEqualTo(0x800001L);
    }

    @Test
    void lengthEncodedIntegersCoverAllMarkers() {
        assertThat(cursor(0xFA).lengthEncodedInt()).isEqualTo(250);
        assertThat(cursor(0xFB).lengthEncodedInt()).isEqualTo(-1);
        assertThat(cursor(0xFC, 0x00, 0x01).lengthEncodedInt()).isEqualTo(256);
        assertThat(cursor(0xFD, 0x00, 0x00, 0x01).lengthEncodedInt()).isEqualTo(65536);
        assertThat(cursor(0xFE, 1, 0, 0, 0, 0, 0, 0, 0).lengthEncodedInt()).isEqualTo(1);
        assertThatThrownBy(() -> cursor(0xFF).lengthEncodedInt()).isInstanceOf(MalformedDataException.class);
    }

    @Test
    void readingPastTheEndFailsWithTheOffset() {
        LittleEndianCursor c = cursor(1, 2, 3);
        c.skip(2);
        assertThatThrownBy(c::uint16).isInstanceOf(MalformedDataException.class)
                .hasMessageContaining("offset 2");
    }

    @Test
    void absurdLengthIsRejectedBeforeAllocating() {
        LittleEndianCursor c = cursor(0xFE, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0);
        long length = c.lengthEncodedInt();
        assertThatThrownBy(() -> c.checkedLength(length)).isInstanceOf(MalformedDataException.class);
    }

    @Test
    void nullTerminatedStringWithoutTerminatorFails() {
        assertThat(cursor('a', 'b', 0, 'c').nullTerminatedString()).isEqualTo("ab");
        assertThatThrownBy(() -> cursor('a', 'b').nullTerminatedString()).isInstanceOf(MalformedDataException.class);
    }

    @Test
    void limitExcludesTrailingBytes() {
        LittleEndianCursor c = cursor(1, 2, 3, 4);
        c.limit(2);
        assertThat(c.remaining()).isEqualTo(2);
        assertThatThrownBy(() -> c.skip(3)).isInstanceOf(MalformedDataException.class);
    }
}
