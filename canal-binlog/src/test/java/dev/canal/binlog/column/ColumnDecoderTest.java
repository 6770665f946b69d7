package dev.canal.binlog.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.binlog.event.Bytes;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ColumnDecoderTest {

    private static Object decode(int type, int meta, Bytes bytes) {
        LittleEndianCursor c = new LittleEndianCursor(bytes.toArray());
        Object v = ColumnDecoder.decode(type, meta, c);
        assertThat(c.hasRemaining()).as("whole value consumed").isFalse();
        return v;
    }

    @Test
    void integersAreSignedAsStored() {
        assertThat(decode(ColumnType.TINY, 0, new Bytes().u8(0xFF))).isEqualTo(-1L);
        assertThat(decode(ColumnType.SHORT, 0, new Bytes().u16(0x8000))).isEqualTo(-32768L);
        assertThat(decode(ColumnType.INT24, 0, new Bytes().u24(0x7FFFFF))).isEqualTo(8388607L);
        assertThat(decode(ColumnType.LONG, 0, new Bytes().u32(0xFFFFFFFFL))).isEqualTo(-1L);
        assertThat(decode(ColumnType.LONGLONG, 0, new Bytes().u64(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void decimalsKeepTheirScaleAndSign() {
        // DECIMAL(14,4) 1234567890.1234 as in MySQL's decimal2bin documentation
        assertThat(decode(ColumnType.NEWDECIMAL, 14 << 8 | 4, new Bytes().bytes(0x81, 0x0D, 0xFB, 0x38, 0xD2, 0x04,
                0xD2))).isEqualTo(new BigDecimal("1234567890.1234"));
        assertThat(decode(ColumnType.NEWDECIMAL, 14 << 8 | 4, new Bytes().bytes(0x7E, 0xF2, 0x04, 0xC7, 0x2D, 0xFB,
                0x2D))).isEqualTo(new BigDecimal("-1234567890.1234"));
        assertThat(decode(ColumnType.NEWDECIMAL, 10 << 8 | 3, new Bytes().bytes(0x80, 0x00, 0x00, 0x01, 0x00, 0x00)))
                .isEqualTo(new BigDecimal("1.000"));
        assertThat(DecimalCodec.binarySize(65, 30)).isEqualTo(30);
    }

    @Test
    void temporalValuesKeepZeroDatesNegativeTimesAndExactFractionDigits() {
        assertThat(decode(ColumnType.DATE, 0, new Bytes().u24(0))).hasToString("0000-00-00");
        assertThat(decode(ColumnType.DATE, 0, new Bytes().u24(2024 << 9))).isEqualTo(new DateValue(2024, 0, 0))
                .hasToString("2024-00-00");
        assertThat(decode(ColumnType.DATETIME2, 0, new Bytes().be(0x8000000000L, 5))).hasToString("0000-00-00 00:00:00");
        assertThat(decode(ColumnType.DATETIME2, 6, new Bytes().be(0x8000000000L, 5).be(0, 3)))
                .hasToString("0000-00-00 00:00:00.000000");
        // TIME(6) -00:00:00.000001: packed -1 → 6 bytes 0x7FFFFFFFFFFF
        assertThat(decode(ColumnType.TIME2, 6, new Bytes().be(0x7FFFFFFFFFFFL, 6))).hasToString("-00:00:00.000001");
        // TIME(0) -838:59:59
        long hms = (838L << 12) | (59 << 6) | 59;
        assertThat(decode(ColumnType.TIME2, 0, new Bytes().be(0x800000L - hms, 3))).hasToString("-838:59:59");
        // TIME(2) -00:00:00.01: integer part borrows one second
        assertThat(decode(ColumnType.TIME2, 2, new Bytes().be(0x800000L - 1, 3).u8(0x100 - 1))).hasToString("-00:00:00.01");
        assertThat(decode(ColumnType.TIME, 0, new Bytes().u24(-8385959 & 0xFFFFFF)))
                .isEqualTo(new TimeValue(true, 838, 59, 59, 0, 0)).hasToString("-838:59:59");
        assertThat(decode(ColumnType.DATETIME, 0, new Bytes().u64(20240229235959L))).hasToString("2024-02-29 23:59:59");
        assertThat(decode(ColumnType.TIMESTAMP2, 6, new Bytes().be(1, 4).be(1, 3)))
                .isEqualTo(new TimestampValue(1, 1, 6));
        assertThat(decode(ColumnType.YEAR, 0, new Bytes().u8(0))).isEqualTo(0);
        assertThat(decode(ColumnType.YEAR, 0, new Bytes().u8(255))).isEqualTo(2155);
    }

    @Test
    void stringsEnumsAndSetsHideInStringMetadata() {
        assertThat(decode(ColumnType.STRING, ColumnType.STRING << 8 | 10, new Bytes().u8(2).str("ab")))
                .isEqualTo("ab".getBytes());
        assertThat(decode(ColumnType.STRING, ColumnType.ENUM << 8 | 2, new Bytes().u16(260))).isEqualTo(260);
        assertThat(decode(ColumnType.STRING, ColumnType.SET << 8 | 3, new Bytes().u24(0x80101))).isEqualTo(0x80101L);
        // CHAR(255) utf8mb4 = 1020 bytes: two length bits folded into the type byte, two-byte length prefix
        int meta = ((ColumnType.STRING ^ 0x30) << 8) | (1020 & 0xFF);
        assertThat(ColumnType.realType(ColumnType.STRING, meta)).isEqualTo(ColumnType.STRING);
        assertThat((byte[]) decode(ColumnType.STRING, meta, new Bytes().u16(300).bytes(new byte[300]))).hasSize(300);
        assertThat(decode(ColumnType.BIT, 5 | 1 << 8, new Bytes().be(0x1555, 2))).isEqualTo(0x1555L);
    }

    @Test
    void lengthsBeyondTheImageAreRejectedBeforeAllocating() {
        assertThatThrownBy(() -> decode(ColumnType.BLOB, 4, new Bytes().u32(0x7FFFFFFF).str("x")))
                .isInstanceOf(MalformedDataException.class).hasMessageContaining("exceeds");
        assertThatThrownBy(() -> decode(ColumnType.NEWDECIMAL, 70 << 8 | 2, new Bytes().u8(0)))
                .isInstanceOf(MalformedDataException.class).hasMessageContaining("DECIMAL(70,2)");
        assertThatThrownBy(() -> decode(ColumnType.TIME2, 9, new Bytes().u24(0)))
                .isInstanceOf(MalformedDataException.class).hasMessageContaining("precision 9");
    }
}
