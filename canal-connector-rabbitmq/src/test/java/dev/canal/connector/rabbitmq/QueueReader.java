package dev.canal.connector.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.canal.testsupport.RabbitMqBroker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/** A plain consumer's view of the broker, as a downstream application would have it, and the test's set-up calls. */
final class QueueReader {

    private QueueReader() {
    }

    static Connection connect(RabbitMqBroker broker) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(broker.port());
        return factory.newConnection("test-reader");
    }

    /** Declares a durable queue bound to a durable direct exchange with {@code key}. */
    static void bind(RabbitMqBroker broker, String exchange, String queue, String key) throws Exception {
        try (Connection c = connect(broker); Channel ch = c.createChannel()) {
            ch.exchangeDeclare(exchange, "direct", true);
            ch.queueDeclare(queue, true, false, false, null);
            ch.queueBind(queue, exchange, key);
        }
    }

    /**
     * Takes the durable queue's messages (acknowledging them), waiting up to {@code timeout} until at least {@code expected}
     * arrived, then a little longer: more than expected would mean duplicates the test should see.
     */
    static List<GetResponse> read(RabbitMqBroker broker, String queue, int expected, Duration timeout)
            throws Exception {
        List<GetResponse> messages = new ArrayList<>();
        try (Connection c = connect(broker); Channel ch = c.createChannel()) {
            ch.queueDeclare(queue, true, false, false, null); // as the producer declares it: may not have happened yet
            long deadline = System.nanoTime() + timeout.toNanos();
            long quietUntil = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(deadline, quietUntil)) {
                GetResponse r = ch.basicGet(queue, true);
                if (r != null) {
                    messages.add(r);
                } else {
                    if (messages.size() >= expected && quietUntil == Long.MAX_VALUE) {
                        quietUntil = System.nanoTime() + Duration.ofMillis(300).toNanos();
                    }
                    Thread.sleep(20); // polling a queue: basicGet has no wait of its own
                }
            }
        }
        return messages;
    }
}
