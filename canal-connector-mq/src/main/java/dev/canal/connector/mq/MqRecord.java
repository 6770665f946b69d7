package dev.canal.connector.mq;

import java.util.Objects;

/** One message for the broker: Canal sends no key, an explicit partition and the encoded bytes (docs/mq.md). */
public record MqRecord(String topic, int partition, byte[] value) {

    public MqRecord {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(value, "value");
    }
}
