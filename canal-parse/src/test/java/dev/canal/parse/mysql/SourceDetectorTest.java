package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.TestProperties;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class SourceDetectorTest {

    private static final Supplier<Connection> UNREACHABLE = () -> {
        throw new IllegalStateException("connection refused");
    };

    private static MysqlParserConfig detecting(int threshold) {
        return MysqlParserConfig.fromProperties(TestProperties.of("canal.instance.master.address", "db.example:3306",
                "canal.instance.detecting.enable", "true", "canal.instance.detecting.sql", "select 1",
                "canal.instance.detecting.interval.time", "1",
                "canal.instance.detecting.retry.threshold", Integer.toString(threshold)));
    }

    @Test
    void moreFailuresInARowThanTheThresholdCallTheSourceDownHandlerAndCountingStartsAfresh() {
        AtomicInteger downCalls = new AtomicInteger();
        SourceDetector detector = SourceDetector.startIfEnabled("it", detecting(1), UNREACHABLE,
                downCalls::incrementAndGet);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> downCalls.get() == 1);
            assertThat(detector.failures()).as("counting starts afresh against the new source")
                    .isLessThanOrEqualTo(1);
        } finally {
            detector.close();
        }
    }

    @Test
    void withoutAHandlerTheDetectorOnlyCountsFailures() {
        SourceDetector detector = SourceDetector.startIfEnabled("it", detecting(1), UNREACHABLE, null);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> detector.failures() >= 3);
        } finally {
            detector.close();
        }
    }

    @Test
    void aDetectorIsStartedOnlyWhenEnabledWithAStatement() {
        MysqlParserConfig off = MysqlParserConfig.fromProperties(TestProperties.of(
                "canal.instance.master.address", "db.example:3306", "canal.instance.detecting.sql", "select 1"));

        assertThat(SourceDetector.startIfEnabled("it", off, UNREACHABLE, () -> { })).isNull();
    }
}
