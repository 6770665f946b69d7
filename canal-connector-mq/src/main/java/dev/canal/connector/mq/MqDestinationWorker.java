package dev.canal.connector.mq;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.server.CanalServer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One destination's MQ loop (Canal's CanalMQRunnable): subscribe as {@code (dest, 1001)},
 * take a batch without ack, send all its records and wait for the broker to acknowledge every one, then ack.
 * Any failure rolls the batch back, so the same data is fetched again after a back-off: the cursor never
 * passes data the broker has not acknowledged, and since nothing is acked meanwhile the store fills up and
 * blocks the parser (back-pressure, not loss). Batches are strictly sequential.
 */
public final class MqDestinationWorker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(MqDestinationWorker.class);
    /** Canal's client id for MQ mode. */
    public static final short CLIENT_ID = 1001;
    private static final long IDLE_MS = 100;
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 2_000;

    private final CanalServer server;
    private final ClientIdentity client;
    private final MqConfig config;
    private final BatchEncoder encoder;
    private final MqProducer producer;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private long backoffMs = FIRST_BACKOFF_MS; // worker thread only
    private int failures; // worker thread only

    public MqDestinationWorker(CanalServer server, String destination, MqConfig config, BatchEncoder encoder,
            MqProducer producer) {
        this.server = Objects.requireNonNull(server, "server");
        this.client = new ClientIdentity(destination, CLIENT_ID, "");
        this.config = Objects.requireNonNull(config, "config");
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.producer = Objects.requireNonNull(producer, "producer");
    }

    public String destination() {
        return client.destination();
    }

    /** Asks the loop to end after the batch in hand; that batch is rolled back unless it was acknowledged. */
    public void stop() {
        stopped.countDown();
    }

    private boolean running() {
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
            log.info("MQ worker of destination {} stopped", client.destination());
            MDC.remove("destination");
        }
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

    private void pump() throws InterruptedException {
        Message batch = take();
        if (batch.isEmpty()) {
            pause(IDLE_MS);
            return;
        }
        try {
            List<MqRecord> records = encoder.encode(batch);
            producer.sendAll("destination " + client.destination() + " batch " + batch.id(), records);
            server.ack(client, batch.id());
            if (failures > 0) {
                log.info("destination {}: batch {} delivered and acked after {} failed attempt(s)",
                        client.destination(), batch.id(), failures);
            }
            failures = 0;
            backoffMs = FIRST_BACKOFF_MS;
        } catch (MqSendException | RuntimeException e) {
            failures++;
            rollback(batch.id());
            long wait = nextBackoff();
            log.warn("destination {}: batch {} ({} entries) not delivered, rolled back; attempt {} failed, retrying"
                    + " in {} ms: {}", client.destination(), batch.id(), batch.size(), failures, wait, describe(e));
            pause(wait);
        } catch (InterruptedException e) {
            rollback(batch.id());
            throw e;
        }
    }

    private Message take() {
        long timeout = config.canalGetTimeoutMs();
        return timeout <= 0
                ? server.getWithoutAck(client, config.canalBatchSize())
                : server.getWithoutAck(client, config.canalBatchSize(), timeout, TimeUnit.MILLISECONDS);
    }

    private void rollback(long batchId) {
        try {
            server.rollback(client, batchId);
        } catch (RuntimeException e) {
            // the instance is going away: its outstanding batch dies with it and is re-read from the cursor
            log.warn("destination {}: rollback of batch {} failed: {}", client.destination(), batchId, e.getMessage());
        }
    }

    private long nextBackoff() {
        long wait = backoffMs;
        backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
        return wait;
    }

    /** Waits, returning early when stopped. */
    private void pause(long ms) throws InterruptedException {
        stopped.await(ms, TimeUnit.MILLISECONDS);
    }

    private static String describe(Exception e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return e.getMessage() + (cause != e ? " (" + cause + ")" : "");
    }
}
