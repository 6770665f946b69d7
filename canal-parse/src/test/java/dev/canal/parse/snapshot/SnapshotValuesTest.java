package dev.canal.parse.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.column.DatetimeValue;
import dev.canal.binlog.column.TimeValue;
import dev.canal.binlog.column.TimestampValue;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class SnapshotValuesTest {

    @Test
    void unsignedValuesOfTheUpperHalfBecomeTheNegativesTheRowImageStores() {
        assertThat(SnapshotValues.asStored("255", true, 8)).isEqualTo(-1);
        assertThat(SnapshotValues.asStored("127", true, 8)).isEqualTo(127);
        assertThat(SnapshotValues.asStored("16777215", true, 24)).isEqualTo(-1);
        assertThat(SnapshotValues.asStored("18446744073709551615", true, 64)).isEqualTo(-1);
        assertThat(SnapshotValues.asStored("-128", false, 8)).isEqualTo(-128);
    }

    @Test
    void temporalTextKeepsItsFractionDigitsAsTheColumnPrecision() {
        assertThat(SnapshotValues.datetime("2024-01-02 03:04:05.000120"))
                .isEqualTo(new DatetimeValue(2024, 1, 2, 3, 4, 5, 120, 6));
        assertThat(SnapshotValues.datetime("0000-00-00 00:00:00")).isEqualTo(new DatetimeValue(0, 0, 0, 0, 0, 0, 0, 0));
        assertThat(SnapshotValues.time("-838:59:59")).isEqualTo(new TimeValue(true, 838, 59, 59, 0, 0));
        assertThat(SnapshotValues.time("-00:00:00.001")).isEqualTo(new TimeValue(true, 0, 0, 0, 1000, 3));
        assertThat(SnapshotValues.timestamp(new BigDecimal("2145916800.500")))
                .isEqualTo(new TimestampValue(2145916800L, 500_000, 3));
        assertThat(SnapshotValues.timestamp(new BigDecimal("0"))).isEqualTo(new TimestampValue(0, 0, 0));
    }

    @Test
    void jsonFloatingPointNumbersTakeJavasNotationOutsideStrings() {
        assertThat(JsonDoubleText.of("{\"a\": 1e22, \"b\": [-3e-7, 0.1, 12], \"c\": \"1e22 \\\" 2.50\"}"))
                .isEqualTo("{\"a\": 1.0E22, \"b\": [-3.0E-7, 0.1, 12], \"c\": \"1e22 \\\" 2.50\"}");
        assertThat(JsonDoubleText.of("[1, 2]")).isEqualTo("[1, 2]");
    }
}
