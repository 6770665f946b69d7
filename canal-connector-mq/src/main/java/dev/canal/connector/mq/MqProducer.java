package dev.canal.connector.mq;

import java.util.List;

/** The broker side of MQ mode: one implementation per broker (Kafka first). */
public interface MqProducer extends AutoCloseable {

    /**
     * Sends every record and returns only once the broker acknowledged all of them.
     *
     * @param context names the destination and batch in log lines about a slow or unreachable broker
     * @throws MqSendException when any record was not acknowledged; some others may have been (at least once)
     */
    void sendAll(String context, List<MqRecord> records) throws MqSendException, InterruptedException;

    @Override
    void close();
}
