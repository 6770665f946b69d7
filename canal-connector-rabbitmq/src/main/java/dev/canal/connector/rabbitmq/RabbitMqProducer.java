package dev.canal.connector.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes batches to RabbitMQ as Canal does (persistent text/plain messages to {@code rabbitmq.exchange}, routing
 * key = topic), but on a channel in confirm mode: a batch counts as sent only once the broker confirmed every
 * message, which for a durable queue means it is on disk. With {@code rabbitmq.mandatory} it must also have routed
 * each to at least one queue; without, as in Canal, a message no queue is bound for is dropped by the broker. A
 * negative confirm, a returned message, a timeout or a lost connection fails the batch, which the worker
 * rolls back and sends again; the connection is then dropped and opened anew (with the declarations) by the next
 * send, so a restarted broker is picked up. Destinations share the one connection and channel, one batch at a time.
 */
public final class RabbitMqProducer implements MqProducer {

    private static final Logger log = LoggerFactory.getLogger(RabbitMqProducer.class);
    private static final Duration DEFAULT_WAIT_REPORT_PERIOD = Duration.ofSeconds(10);
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int HEARTBEAT_SECONDS = 10;

    private final RabbitMqConfig config;
    private final ConnectionFactory factory = new ConnectionFactory();
    private final Duration waitReportPeriod;
    /** Routing keys of messages the broker returned as unroutable in the batch being sent. */
    private final Queue<String> returned = new ConcurrentLinkedQueue<>();
    private Connection connection; // guarded by this
    private Channel channel; // guarded by this

    public RabbitMqProducer(RabbitMqConfig config) {
        this(config, DEFAULT_WAIT_REPORT_PERIOD);
    }

    public RabbitMqProducer(RabbitMqConfig config, Duration waitReportPeriod) {
        this.config = config;
        this.waitReportPeriod = waitReportPeriod;
        factory.setHost(config.host());
        factory.setPort(config.port());
        factory.setVirtualHost(config.virtualHost());
        factory.setUsername(config.username());
        factory.setPassword(config.password());
        factory.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        factory.setRequestedHeartbeat(HEARTBEAT_SECONDS);
        // a lost connection fails the batch in hand; the next send connects anew, so the client's own recovery,
        // which would replay nothing of the unconfirmed batch, stays off
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
    }

    @Override
    public synchronized void sendAll(String context, List<MqRecord> records) throws MqSendException,
            InterruptedException {
        Channel ch = channel(context);
        returned.clear();
        try {
            for (MqRecord r : records) {
                ch.basicPublish(config.exchange(), r.topic(), config.mandatory(), MessageProperties.PERSISTENT_TEXT_PLAIN,
                        r.value());
            }
            awaitConfirms(context, ch, records.size());
        } catch (IOException | RuntimeException e) {
            disconnect();
            throw new MqSendException(context + ": RabbitMQ at " + config.address() + " did not confirm the batch: "
                    + e.getMessage(), e);
        }
        if (!returned.isEmpty()) {
            throw new MqSendException(context + ": " + returned.size() + " message(s) reached no queue (exchange '"
                    + config.exchange() + "', routing key '" + returned.peek() + "'); bind a queue for that key",
                    null);
        }
    }

    /** Waits for every confirm, saying so once per report period; a timeout or a negative confirm fails. */
    private void awaitConfirms(String context, Channel ch, int messages) throws MqSendException, IOException,
            InterruptedException {
        long deadline = System.nanoTime() + config.confirmTimeoutMs() * 1_000_000;
        while (true) {
            long leftMs = (deadline - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0) {
                disconnect();
                throw new MqSendException(context + ": RabbitMQ at " + config.address() + " confirmed not all of "
                        + messages + " messages within " + RabbitMqConfig.CONFIRM_TIMEOUT.name() + "="
                        + config.confirmTimeoutMs() + " ms", null);
            }
            try {
                if (!ch.waitForConfirms(Math.min(leftMs, waitReportPeriod.toMillis()))) {
                    disconnect();
                    throw new MqSendException(context + ": RabbitMQ at " + config.address()
                            + " refused a message of the batch (negative confirm)", null);
                }
                return;
            } catch (TimeoutException e) {
                log.warn("{}: RabbitMQ ({}) has not confirmed all of {} messages yet; still waiting, nothing is acked"
                        + " meanwhile", context, config.address(), messages);
            }
        }
    }

    /** The open channel in confirm mode, connecting and declaring first when there is none. */
    private Channel channel(String context) throws MqSendException {
        if (channel != null && channel.isOpen()) {
            return channel;
        }
        disconnect();
        try {
            connection = factory.newConnection("canal-mq");
            Channel ch = connection.createChannel();
            declare(ch);
            ch.confirmSelect();
            ch.addReturnListener(r -> returned.add(r.getRoutingKey()));
            channel = ch;
            log.info("connected to RabbitMQ at {}, exchange '{}'", config.address(), config.exchange());
            return ch;
        } catch (IOException | TimeoutException | RuntimeException e) {
            disconnect();
            throw new MqSendException(context + ": cannot connect to RabbitMQ at " + config.address() + " as "
                    + config.username() + ": " + describe(e), e);
        }
    }

    /** What Canal declares at start: the durable queue, the durable exchange of the configured type, the binding. */
    private void declare(Channel ch) throws IOException {
        if (!config.queue().isEmpty()) {
            ch.queueDeclare(config.queue(), true, false, false, null);
        }
        if (!config.exchange().isEmpty()) {
            ch.exchangeDeclare(config.exchange(), config.exchangeType(), true, false, false, null);
            if (!config.queue().isEmpty()) {
                ch.queueBind(config.queue(), config.exchange(), config.routingKey());
            }
        }
    }

    private void disconnect() {
        Connection open = connection;
        connection = null;
        channel = null;
        if (open != null) {
            open.abort(CONNECT_TIMEOUT_MS); // closes without waiting on a broker that may be gone
        }
    }

    private static String describe(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null && (cause.getMessage() == null || cause.getMessage().isBlank())) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    @Override
    public synchronized void close() {
        disconnect();
    }
}
