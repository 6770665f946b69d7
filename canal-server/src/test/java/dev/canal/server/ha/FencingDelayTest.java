package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FencingDelayTest {

    private static final Duration CANAL_DELAY = Duration.ofSeconds(5);

    @Test
    void shortSessionFencesAfterAThirdOfIt() {
        assertThat(FencingDelay.of(Duration.ofSeconds(3), CANAL_DELAY)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void longSessionNeverFencesLaterThanHalfTheTakeoverDelay() {
        assertThat(FencingDelay.of(Duration.ofSeconds(40), CANAL_DELAY)).isEqualTo(Duration.ofMillis(2500));
        assertThat(FencingDelay.of(Duration.ofSeconds(90), Duration.ZERO)).isZero();
    }

    @Test
    void negativeDurationsAreRejected() {
        assertThatThrownBy(() -> FencingDelay.of(Duration.ofSeconds(-1), CANAL_DELAY))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
