package dev.canal.connector.mq;

import dev.canal.protocol.Message;
import dev.canal.server.CanalServer;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At least once (Canal's way): each batch's records go to the broker, and the batch is acked once the broker
 * acknowledged every one; a failure rolls the batch back and sends it again whole.
 */
public final class AckingDestinationWorker extends MqDestinationWorker {

    private static final Logger log = LoggerFactory.getLogger(AckingDestinationWorker.class);

    private final MqProducer producer;
    private int failures; // worker thread only

    public AckingDestinationWorker(CanalServer server, String destination, MqConfig config, BatchEncoder encoder,
            MqProducer producer) {
        super(server, destination, config, encoder);
        this.producer = Objects.requireNonNull(producer, "producer");
    }

    @Override
    protected void pump() throws InterruptedException {
        Message batch = take();
        if (batch.isEmpty()) {
            pause(IDLE_MS);
            return;
        }
        try {
            List<MqRecord> records = encoder.encode(batch);
            producer.sendAll(context(batch.id()), records);
            server.ack(client, batch.id());
            if (failures > 0) {
                log.info("destination {}: batch {} delivered and acked after {} failed attempt(s)",
                        client.destination(), batch.id(), failures);
            }
            failures = 0;
            resetBackoff();
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

    private void rollback(long batchId) {
        try {
            server.rollback(client, batchId);
        } catch (RuntimeException e) {
            // the instance is going away: its outstanding batch dies with it and is re-read from the cursor
            log.warn("destination {}: rollback of batch {} failed: {}", client.destination(), batchId, e.getMessage());
        }
    }
}
