package dev.canal.binlog.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.binlog.io.MalformedDataException;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MysqlGtidSetTest {

    private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String B = "27b76273-ebf7-11f1-ad7b-02fc00000001";

    @Test
    void textFormRoundTripsInUuidOrderWithMergedIntervals() {
        MysqlGtidSet set = MysqlGtidSet.parse(A + ":7:1-5:6," + B.toUpperCase() + ":1-3:9");
        assertThat(set).hasToString(B + ":1-3:9," + A + ":1-7");
        assertThat(MysqlGtidSet.parse(set.toString())).isEqualTo(set);
    }

    @Test
    void showMasterStatusTextWithNewlinesParses() {
        assertThat(MysqlGtidSet.parse(A + ":1-5,\n" + B + ":1-3")).hasToString(B + ":1-3," + A + ":1-5");
        assertThat(MysqlGtidSet.parse("  ").isEmpty()).isTrue();
        assertThat(MysqlGtidSet.parse("")).hasToString("");
    }

    @Test
    void addExtendsFillsAndBridgesIntervals() {
        MysqlGtidSet set = MysqlGtidSet.parse(A + ":1-3:7-9");
        set.add(A, 4);
        assertThat(set).hasToString(A + ":1-4:7-9");
        set.add(A, 6);
        assertThat(set).hasToString(A + ":1-4:6-9");
        set.add(A, 5);
        assertThat(set).hasToString(A + ":1-9");
        set.add(A, 2);
        assertThat(set).hasToString(A + ":1-9");
        set.add(B, 10);
        assertThat(set).hasToString(B + ":10," + A + ":1-9");
        assertThat(set.contains(A, 9)).isTrue();
        assertThat(set.contains(A, 10)).isFalse();
    }

    @Test
    void randomAddsMatchANaiveModel() {
        long seed = System.nanoTime();
        System.out.println("randomAddsMatchANaiveModel seed=" + seed);
        Random random = new Random(seed);
        MysqlGtidSet set = new MysqlGtidSet();
        boolean[] model = new boolean[200];
        for (int i = 0; i < 300; i++) {
            int gno = 1 + random.nextInt(model.length - 1);
            set.add(A, gno);
            model[gno] = true;
        }
        StringBuilder expected = new StringBuilder(A);
        for (int i = 1; i < model.length; i++) {
            if (model[i] && !model[i - 1]) {
                int end = i;
                while (end + 1 < model.length && model[end + 1]) {
                    end++;
                }
                expected.append(':').append(i).append(end == i ? "" : "-" + end);
            }
        }
        assertThat(set).as("seed %d", seed).hasToString(expected.toString());
    }

    @Test
    void binaryFormMatchesMysqlLayout() {
        byte[] encoded = MysqlGtidSet.parse(A + ":1-5:7").encode();
        assertThat(HexFormat.of().formatHex(encoded)).isEqualTo(
                "0100000000000000" // one source
                        + "3e11fa4771ca11e19e33c80aa9429562"
                        + "0200000000000000" // two intervals
                        + "0100000000000000" + "0600000000000000" // [1, 6)
                        + "0700000000000000" + "0800000000000000"); // [7, 8)
        assertThat(MysqlGtidSet.decode(encoded, 0, encoded.length)).hasToString(A + ":1-5:7");
        assertThat(new MysqlGtidSet().encode()).hasSize(8).containsOnly(0);
    }

    @Test
    void decodeReadsASliceOfALargerArray() {
        byte[] encoded = MysqlGtidSet.parse(A + ":1-5," + B + ":3").encode();
        byte[] event = new byte[19 + encoded.length + 4];
        System.arraycopy(encoded, 0, event, 19, encoded.length);
        assertThat(MysqlGtidSet.decode(event, 19, encoded.length)).hasToString(B + ":3," + A + ":1-5");
    }

    @Test
    void taggedSetsRoundTripInTextAndBinary() {
        MysqlGtidSet set = MysqlGtidSet.parse(A + ":1-3:Batch:1-2:alpha:5");
        assertThat(set).hasToString(A + ":1-3:alpha:5:batch:1-2");
        byte[] encoded = set.encode();
        assertThat(encoded[0]).isEqualTo((byte) 1);
        assertThat(encoded[7]).isEqualTo((byte) 1);
        assertThat(encoded[1]).isEqualTo((byte) 3); // three (uuid, tag) sources
        assertThat(MysqlGtidSet.decode(encoded, 0, encoded.length)).isEqualTo(set);
    }

    @Test
    void badTextIsRejectedWithTheInput() {
        assertThatThrownBy(() -> MysqlGtidSet.parse("not-a-uuid:1-5")).hasMessageContaining("not-a-uuid");
        assertThatThrownBy(() -> MysqlGtidSet.parse(A + ":5-3")).hasMessageContaining("5-3");
        assertThatThrownBy(() -> MysqlGtidSet.parse(A + ":0")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> MysqlGtidSet.parse(A)).hasMessageContaining("no transaction numbers");
    }

    @Test
    void truncatedBinaryIsMalformed() {
        byte[] encoded = MysqlGtidSet.parse(A + ":1-5").encode();
        assertThatThrownBy(() -> MysqlGtidSet.decode(encoded, 0, encoded.length - 3))
                .isInstanceOf(MalformedDataException.class);
    }

    @Test
    void copyIsIndependent() {
        MysqlGtidSet set = MysqlGtidSet.parse(A + ":1-5");
        MysqlGtidSet copy = set.copy();
        set.add(A, 6);
        assertThat(copy).hasToString(A + ":1-5");
        copy.addAll(set);
        assertThat(copy).isEqualTo(set);
    }
}
