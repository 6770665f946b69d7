package dev.canal.reliability;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.Message;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** How the size scenarios' client reads once its stall ends: small batches, each acked at once. */
final class StalledClientReads {

    /** A batch in the store's MEMSIZE units (KiB): small, so that a batch is about one big row. */
    static final int BATCH_UNITS = 64;

    private StalledClientReads() {
    }

    /** Gets and acks batches, handing each to {@code received}, until {@code done} or {@code limit} passed. */
    static void readUntil(CanalConnector connector, BooleanSupplier done, Duration limit, Consumer<Message> received) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Message message = connector.getWithoutAck(BATCH_UNITS, 500L, TimeUnit.MILLISECONDS);
            received.accept(message);
            if (message.getId() != -1) {
                connector.ack(message.getId());
            }
        }
    }
}
