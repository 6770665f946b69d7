package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** TIMESTAMP text, checked against a plain java.time rendering over the whole TIMESTAMP range. */
class TimestampTextTest {

    @ParameterizedTest
    @ValueSource(strings = {"UTC", "Asia/Shanghai", "America/New_York", "Europe/London", "+05:30", "Australia/Lord_Howe"})
    void timestampTextIsTheLocalDateTimeInTheZoneWithFspFractionDigits(String zoneId) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        ZoneId zone = ZoneId.of(zoneId);
        TimestampText text = new TimestampText(zone);
        for (int i = 0; i < 20_000; i++) {
            long epochSeconds = 1 + (random.nextLong() & Long.MAX_VALUE) % Integer.MAX_VALUE;
            int fsp = random.nextInt(7);
            int micros = random.nextInt(1_000_000);

            assertThat(ascii(text.timestamp(epochSeconds, micros, fsp))).as("seed %d, %d.%06d fsp %d in %s", seed,
                    epochSeconds, micros, fsp, zone).isEqualTo(expected(epochSeconds, micros, fsp, zone));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 6})
    void theZeroTimestampIsMysqlsZeroDate(int fsp) {
        assertThat(ascii(new TimestampText(ZoneId.of("Asia/Shanghai")).timestamp(0, 0, fsp)))
                .isEqualTo("0000-00-00 00:00:00" + (fsp == 0 ? "" : "." + "0".repeat(fsp)));
    }

    private static String ascii(byte[] text) {
        return new String(text, StandardCharsets.US_ASCII);
    }

    private static String expected(long epochSeconds, int micros, int fsp, ZoneId zone) {
        ZoneOffset offset = zone.getRules().getOffset(Instant.ofEpochSecond(epochSeconds));
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSeconds, 0, offset);
        String seconds = String.format("%04d-%02d-%02d %02d:%02d:%02d", t.getYear(), t.getMonthValue(),
                t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond());
        return fsp == 0 ? seconds : seconds + "." + String.format("%06d", micros).substring(0, fsp);
    }
}
