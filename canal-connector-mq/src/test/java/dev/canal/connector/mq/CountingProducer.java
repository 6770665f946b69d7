package dev.canal.connector.mq;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A real producer whose failed attempts are counted, so a test knows the rollback path ran. */
public record CountingProducer(MqProducer delegate, AtomicInteger failures) implements MqProducer {

    @Override
    public void sendAll(String context, List<MqRecord> records) throws MqSendException, InterruptedException {
        try {
            delegate.sendAll(context, records);
        } catch (MqSendException e) {
            failures.incrementAndGet();
            throw e;
        }
    }

    @Override
    public void close() {
        delegate.close();
    }
}
