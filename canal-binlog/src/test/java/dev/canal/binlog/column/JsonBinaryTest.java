package dev.canal.binlog.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.binlog.event.Bytes;
import dev.canal.binlog.io.MalformedDataException;
import org.junit.jupiter.api.Test;

class JsonBinaryTest {

    private static String json(Bytes b) {
        byte[] a = b.toArray();
        return JsonBinary.toJson(a, 0, a.length);
    }

    @Test
    void scalarsPrintAsMySqlPrintsThem() {
        assertThat(json(new Bytes().u8(JsonBinary.LITERAL).u8(1))).isEqualTo("true");
        assertThat(json(new Bytes().u8(JsonBinary.INT16).u16(0x8000))).isEqualTo("-32768");
        assertThat(json(new Bytes().u8(JsonBinary.UINT64).u64(-1))).isEqualTo("18446744073709551615");
        assertThat(json(new Bytes().u8(JsonBinary.DOUBLE).u64(Double.doubleToLongBits(1.0)))).isEqualTo("1.0");
        assertThat(json(new Bytes().u8(JsonBinary.STRING).u8(5).bytes('a', '"', '\\', '\n', 1)))
                .isEqualTo("\"a\\\"\\\\\\n\\u0001\"");
        assertThat(JsonBinary.toJson(new byte[0], 0, 0)).isEqualTo("null");
    }

    @Test
    void doublesArePrintedAsJavaAndCanalPrintThem() {
        assertThat(JsonDouble.toText(1e22)).isEqualTo("1.0E22");
        assertThat(JsonDouble.toText(1.5e-20)).isEqualTo("1.5E-20");
        assertThat(JsonDouble.toText(-3e-7)).isEqualTo("-3.0E-7");
        assertThat(JsonDouble.toText(-0.0)).isEqualTo("-0.0");
        assertThat(JsonDouble.toText(1e14)).isEqualTo("1.0E14");
        assertThat(JsonDouble.toText(1234567.0)).isEqualTo("1234567.0");
        assertThat(JsonDouble.toText(0.001)).isEqualTo("0.001");
        assertThat(JsonDouble.toText(0.0001)).isEqualTo("1.0E-4");
        assertThat(JsonDouble.toText(2.5)).isEqualTo("2.5");
    }

    @Test
    void largeArraysAndNestedObjectsDecode() {
        // large array [1, "x"]: count 4, size 4, entries of 5 bytes (type + 4-byte offset or inline value)
        Bytes large = new Bytes().u8(JsonBinary.LARGE_ARRAY).u32(2).u32(8 + 10 + 2)
                .u8(JsonBinary.INT32).u32(1).u8(JsonBinary.STRING).u32(18).u8(1).str("x");
        assertThat(json(large)).isEqualTo("[1, \"x\"]");
        // {"o": {}}: outer small object with one key whose value is an empty small object stored by offset
        Bytes nested = new Bytes().u8(JsonBinary.SMALL_OBJECT).u16(1).u16(16).u16(11).u16(1)
                .u8(JsonBinary.SMALL_OBJECT).u16(12).str("o").u16(0).u16(4);
        assertThat(json(nested)).isEqualTo("{\"o\": {}}");
    }

    @Test
    void opaqueTemporalAndDecimalValuesUseTheServersText() {
        long date = ((2012L * 13 + 3) << 5 | 18) << 17 << 24;
        assertThat(json(new Bytes().u8(JsonBinary.OPAQUE).u8(ColumnType.DATE).u8(8).u64(date)))
                .isEqualTo("\"2012-03-18\"");
        assertThat(json(new Bytes().u8(JsonBinary.OPAQUE).u8(ColumnType.NEWDECIMAL).u8(4).u8(3).u8(2)
                .bytes(0x89, 0x00))).isEqualTo("9.00");
        assertThat(json(new Bytes().u8(JsonBinary.OPAQUE).u8(ColumnType.VARCHAR).u8(1).str("U")))
                .isEqualTo("\"base64:type15:VQ==\"");
    }

    @Test
    void corruptOffsetsFailInsteadOfReadingElsewhere() {
        Bytes badOffset = new Bytes().u8(JsonBinary.SMALL_ARRAY).u16(1).u16(7).u8(JsonBinary.STRING).u16(200);
        assertThatThrownBy(() -> json(badOffset)).isInstanceOf(MalformedDataException.class);
        Bytes tooMany = new Bytes().u8(JsonBinary.SMALL_ARRAY).u16(1000).u16(7).u8(JsonBinary.LITERAL).u16(0);
        assertThatThrownBy(() -> json(tooMany)).isInstanceOf(MalformedDataException.class)
                .hasMessageContaining("1000 elements");
    }
}
