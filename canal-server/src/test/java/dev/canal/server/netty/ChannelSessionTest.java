package dev.canal.server.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChannelSessionTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void aNewConnectionsFirstRequestRunsAfterTheAcksAClosedConnectionLeft() throws Exception {
        ClosedSessionLeftovers leftovers = new ClosedSessionLeftovers(TimeUnit.SECONDS.toMillis(30));
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch ackMayFinish = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);

        closeWhileAnAckRuns(leftovers, () -> {
            await(ackMayFinish);
            ran.add("ack of the closed connection");
        });

        ChannelSession next = new ChannelSession(new EmbeddedChannel(), pool, leftovers);
        next.submit(() -> {
            ran.add("rollback of the new connection");
            done.countDown();
        });
        assertThat(done.await(200, TimeUnit.MILLISECONDS)).as("the new request waits for the old ack").isFalse();
        ackMayFinish.countDown();

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).containsExactly("ack of the closed connection", "rollback of the new connection");
    }

    @Test
    void aNewConnectionWaitsNoLongerThanTheBoundForAClosedConnectionsSlowRequest() throws Exception {
        ClosedSessionLeftovers leftovers = new ClosedSessionLeftovers(50);
        CountDownLatch never = new CountDownLatch(1);
        closeWhileAnAckRuns(leftovers, () -> await(never));

        CountDownLatch done = new CountDownLatch(1);
        new ChannelSession(new EmbeddedChannel(), pool, leftovers).submit(done::countDown);

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A connection closes while a request that must still run (an ack) is running on the pool. */
    private void closeWhileAnAckRuns(ClosedSessionLeftovers leftovers, Runnable ack) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        ChannelSession old = new ChannelSession(new EmbeddedChannel(), pool, leftovers);
        old.submit(() -> {
            started.countDown();
            ack.run();
        }, true);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        old.close();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
