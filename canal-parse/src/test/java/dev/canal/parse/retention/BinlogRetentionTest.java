package dev.canal.parse.retention;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BinlogRetentionTest {

    @Test
    void secondsWinOverDaysAndDaysMayBeFractionsAsMariaDbPrintsThem() {
        assertThat(BinlogRetention.expirySeconds(Map.of("binlog_expire_logs_seconds", "2592000",
                "expire_logs_days", "7"))).isEqualTo(2_592_000);
        assertThat(BinlogRetention.expirySeconds(Map.of("binlog_expire_logs_seconds", "0",
                "expire_logs_days", "0.500000"))).isEqualTo(43_200);
        assertThat(BinlogRetention.expirySeconds(Map.of("expire_logs_days", "3"))).isEqualTo(259_200);
    }

    @Test
    void noExpiryWhenBothAreZeroOrAutomaticPurgingIsOff() {
        assertThat(BinlogRetention.expirySeconds(Map.of("binlog_expire_logs_seconds", "0",
                "expire_logs_days", "0.000000"))).isZero();
        assertThat(BinlogRetention.expirySeconds(Map.of("binlog_expire_logs_seconds", "3600",
                "binlog_expire_logs_auto_purge", "OFF"))).isZero();
        assertThat(BinlogRetention.expirySeconds(Map.of())).isZero();
    }
}
