package dev.canal.connector.mq;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.server.CanalServer;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One destination's MQ loop (Canal's CanalMQRunnable): subscribe as {@code (dest, 1001)}, then take batches without
 * ack and hand them to the broker, acking only what the broker has. How a batch reaches the broker is the
 * subclass's: {@link AckingDestinationWorker} acks each batch once the broker acknowledged its records,
 * {@link TransactionalDestinationWorker} commits batches and the cursor in one broker transaction. A failed
 * delivery rolls back, so the same data is fetched again after a back-off (100 ms doubling to 2 s): the cursor
 * never passes data the broker has not, and since nothing is acked meanwhile the store fills up and blocks the
 * parser (back-pressure, not loss). Batches are strictly sequential.
 */
public abstract class MqDestinationWorker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(MqDestinationWorker.class);
    /** Canal's client id for MQ mode. */
    public static final short CLIENT_ID = 1001;
    protected static final long IDLE_MS = 100;
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 2_000;

    protected final CanalServer server;
    protected final ClientIdentity client;
    protected final MqConfig config;
    protected final BatchEncoder encoder;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private long backoffMs = FIRST_BACKOFF_MS; // worker thread only

    protected MqDestinationWorker(CanalServer server, String destination, MqConfig config, BatchEncoder encoder) {
        this.server = Objects.requireNonNull(server, "server");
        this.client = new ClientIdentity(destination, CLIENT_ID, "");
        this.config = Objects.requireNonNull(config, "config");
        this.encoder = Objects.requireNonNull(encoder, "encoder");
    }

    public String destination() {
        return client.destination();
    }

    /** Asks the loop to end after the batch in hand; that batch is rolled back unless it was delivered. */
    public void stop() {
        stopped.countDown();
    }

    protected boolean running() {
        return stopped.getCount() > 0 && !Thread.currentThread().isInterrupted();
    }

    @Override
    public void run() {
        MDC.put("destination", client.destination());
        try {
            if (subscribe()) {
                while (running()) {
                    try {
                        pump();
                    } catch (RuntimeException e) {
                        log.warn("destination {}: cannot take a batch ({}); retrying in {} ms", client.destination(),
                                e.getMessage(), backoffMs);
                        pause(nextBackoff());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finish();
            log.info("MQ worker of destination {} stopped", client.destination());
            MDC.remove("destination");
        }
    }

    /** Takes the next batch, or waits a little when there is none, and delivers what it took. */
    protected abstract void pump() throws InterruptedException;

    /** Releases what the loop holds, on its way out. */
    protected void finish() {
    }

    /** Subscribes, retrying while the destination is not started yet; false when stopped meanwhile. */
    private boolean subscribe() throws InterruptedException {
        while (running()) {
            try {
                server.subscribe(client);
                log.info("MQ worker of destination {} subscribed as {}", client.destination(), client);
                return true;
            } catch (RuntimeException e) {
                log.warn("destination {}: cannot subscribe yet ({}); retrying in {} ms", client.destination(),
                        e.getMessage(), backoffMs);
                pause(nextBackoff());
            }
        }
        return false;
    }

    protected Message take() {
        long timeout = config.canalGetTimeoutMs();
        return timeout <= 0
                ? server.getWithoutAck(client, config.canalBatchSize())
                : server.getWithoutAck(client, config.canalBatchSize(), timeout, TimeUnit.MILLISECONDS);
    }

    protected long nextBackoff() {
        long wait = backoffMs;
        backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
        return wait;
    }

    protected void resetBackoff() {
        backoffMs = FIRST_BACKOFF_MS;
    }

    /** Waits, returning early when stopped. */
    protected void pause(long ms) throws InterruptedException {
        stopped.await(ms, TimeUnit.MILLISECONDS);
    }

    protected String context(long batchId) {
        return "destination " + client.destination() + " batch " + batchId;
    }

    protected static String describe(Exception e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return e.getMessage() + (cause != e ? " (" + cause + ")" : "");
    }
}
