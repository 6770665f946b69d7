package dev.canal.connector.pulsar;

import dev.canal.testsupport.PulsarBroker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Reader;

/** Reads a topic (or one partition of one) of the test broker from its start, as a consumer of Canal's messages. */
final class TopicReader {

    private TopicReader() {
    }

    /** The first {@code count} messages of the topic, or those that arrived within the timeout. */
    static List<Message<byte[]>> read(PulsarBroker broker, String topic, int count, Duration timeout)
            throws IOException {
        List<Message<byte[]>> messages = new ArrayList<>();
        try (PulsarClient client = PulsarClient.builder().serviceUrl(broker.serviceUrl()).build();
                Reader<byte[]> reader = client.newReader().topic(topic).startMessageId(MessageId.earliest).create()) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (messages.size() < count && System.nanoTime() < deadline) {
                Message<byte[]> m = reader.readNext(200, TimeUnit.MILLISECONDS);
                if (m != null) {
                    messages.add(m);
                }
            }
        }
        return messages;
    }

    /** Everything on the topic now: reads until the reader has caught up with the last message. */
    static List<Message<byte[]>> readAll(PulsarBroker broker, String topic) throws IOException {
        List<Message<byte[]>> messages = new ArrayList<>();
        try (PulsarClient client = PulsarClient.builder().serviceUrl(broker.serviceUrl()).build();
                Reader<byte[]> reader = client.newReader().topic(topic).startMessageId(MessageId.earliest).create()) {
            while (reader.hasMessageAvailable()) {
                Message<byte[]> m = reader.readNext(5, TimeUnit.SECONDS);
                if (m == null) {
                    break;
                }
                messages.add(m);
            }
        }
        return messages;
    }
}
