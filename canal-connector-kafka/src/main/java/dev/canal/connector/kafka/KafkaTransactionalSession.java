package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqCursor;
import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import dev.canal.connector.mq.MqTransactionalSession;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * One destination's transactional Kafka producer: records go out asynchronously into the open transaction; the
 * commit adds the cursor record and waits until Kafka committed (which fails when any record of the transaction
 * failed). Used by the destination's worker thread only.
 */
final class KafkaTransactionalSession implements MqTransactionalSession {

    private final Producer<byte[], byte[]> producer;
    private final String cursorTopic;
    private final byte[] cursorKey;
    private final Optional<MqCursor> committed;
    private boolean inTransaction;

    KafkaTransactionalSession(Producer<byte[], byte[]> producer, String destination, String cursorTopic,
            Optional<MqCursor> committed) {
        this.producer = producer;
        this.cursorTopic = cursorTopic;
        this.cursorKey = destination.getBytes(StandardCharsets.UTF_8);
        this.committed = committed;
    }

    @Override
    public Optional<MqCursor> committed() {
        return committed;
    }

    @Override
    public void send(String context, List<MqRecord> records) throws MqSendException {
        try {
            begin();
            for (MqRecord r : records) {
                // as Canal: no key, an explicit partition
                producer.send(new ProducerRecord<>(r.topic(), r.partition(), null, r.value()));
            }
        } catch (KafkaException e) {
            throw new MqSendException(context + ": Kafka refused a record: " + e.getMessage(), e);
        }
    }

    @Override
    public void commit(String context, MqCursor cursor) throws MqSendException {
        try {
            begin();
            producer.send(new ProducerRecord<>(cursorTopic, cursorKey, cursor.toBytes()));
            producer.commitTransaction();
            inTransaction = false;
        } catch (KafkaException e) {
            throw new MqSendException(context + ": Kafka did not commit the transaction: " + e.getMessage(), e);
        }
    }

    private void begin() {
        if (!inTransaction) {
            producer.beginTransaction();
            inTransaction = true;
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ZERO); // an open transaction is aborted by the next producer of the destination
    }
}
