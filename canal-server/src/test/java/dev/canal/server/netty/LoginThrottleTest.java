package dev.canal.server.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LoginThrottle throttle = new LoginThrottle(now::get);

    @Test
    void answersSlowDownAndDoubleOnceAnAddressHasFailedAFewTimes() throws Exception {
        InetAddress guesser = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});
        long[] delays = new long[LoginThrottle.FREE_FAILURES + 6];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = throttle.delayMillis(guesser);
            throttle.failed(guesser);
        }

        assertThat(delays).startsWith(0, 0, 0, LoginThrottle.BASE_DELAY_MILLIS, 2 * LoginThrottle.BASE_DELAY_MILLIS,
                4 * LoginThrottle.BASE_DELAY_MILLIS);
        assertThat(delays[delays.length - 1]).isEqualTo(LoginThrottle.MAX_DELAY_MILLIS);
    }

    @Test
    void anotherAddressIsNotSlowedDown() throws Exception {
        InetAddress guesser = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});
        for (int i = 0; i < 10; i++) {
            throttle.failed(guesser);
        }

        assertThat(throttle.delayMillis(InetAddress.getByAddress(new byte[] {10, 0, 0, 2}))).isZero();
    }

    @Test
    void anAddressIsForgivenAWhileAfterItsLastFailure() throws Exception {
        InetAddress guesser = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});
        for (int i = 0; i < 10; i++) {
            throttle.failed(guesser);
        }
        now.addAndGet(TimeUnit.SECONDS.toNanos(LoginThrottle.FORGET_AFTER_SECONDS));

        assertThat(throttle.delayMillis(guesser)).isZero();
        throttle.failed(guesser);
        assertThat(throttle.delayMillis(guesser)).as("counting starts over").isZero();
    }

    @Test
    void failuresAreWarnedAboutOncePerIntervalWithACount() throws Exception {
        InetAddress guesser = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});

        int first = throttle.failed(guesser);
        int second = throttle.failed(guesser);
        int third = throttle.failed(guesser);

        assertThat(first).isEqualTo(1);
        assertThat(second).isZero();
        assertThat(third).isZero();
    }
}
