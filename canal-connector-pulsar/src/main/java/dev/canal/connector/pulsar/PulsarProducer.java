package dev.canal.connector.pulsar;

import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes batches to Pulsar as Canal does (one producer per topic, the partition in the {@code partitionNum}
 * property, routed by {@link PartitionPropertyRouter}), but sends a batch's messages asynchronously and returns only
 * once the broker acknowledged every one of them. A message not acknowledged within {@code pulsarmq.send.timeout}
 * (the producer's own send timeout) fails the batch, which the worker rolls back and sends again through new
 * producers for its topics; the client reconnects to a restarted broker by itself. Destinations share the client
 * and the producers.
 */
public final class PulsarProducer implements MqProducer {

    private static final Logger log = LoggerFactory.getLogger(PulsarProducer.class);
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    /** The client's longest pause between reconnection attempts (its default is a minute): a returning broker is
     * written to again within seconds. */
    private static final int MAX_RECONNECT_BACKOFF_MS = 5_000;
    /** Beyond the send timeout: the producer fails its pending messages at that timeout, this is only a backstop. */
    private static final long WAIT_MARGIN_MS = 5_000;

    private final PulsarConfig config;
    private PulsarClient client; // guarded by this
    private final Map<String, Producer<byte[]>> producers = new HashMap<>(); // guarded by this

    public PulsarProducer(PulsarConfig config) {
        this.config = config;
    }

    @Override
    public synchronized void sendAll(String context, List<MqRecord> records) throws MqSendException,
            InterruptedException {
        List<CompletableFuture<MessageId>> sent = new ArrayList<>(records.size());
        try {
            for (MqRecord r : records) {
                sent.add(producer(context, r.topic()).newMessage()
                        .property(PartitionPropertyRouter.PROPERTY, Integer.toString(r.partition()))
                        .value(r.value())
                        .sendAsync());
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
                    .get(config.sendTimeoutMs() + WAIT_MARGIN_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            discardProducers(records);
            throw new MqSendException(context + ": Pulsar at " + config.serverUrl() + " did not acknowledge every "
                    + "message of the batch: " + describe(e), e.getCause());
        } catch (TimeoutException e) {
            discardProducers(records);
            throw new MqSendException(context + ": Pulsar at " + config.serverUrl() + " acknowledged not all of "
                    + records.size() + " messages within " + PulsarConfig.SEND_TIMEOUT.name() + "="
                    + config.sendTimeoutMs() + " ms", e);
        }
    }

    /**
     * Closes the producers of a failed batch's topics, so that the retry opens them anew: a producer the broker
     * fenced or closed for good would otherwise fail every retry, while one that only lost its connection costs a
     * new lookup.
     */
    private void discardProducers(List<MqRecord> records) {
        records.stream().map(MqRecord::topic).distinct().forEach(topic -> {
            Producer<byte[]> producer = producers.remove(topic);
            if (producer != null) {
                producer.closeAsync();
            }
        });
    }

    /** The topic's open producer, creating the client and the producer first when there is none. */
    private Producer<byte[]> producer(String context, String topic) throws MqSendException {
        Producer<byte[]> producer = producers.get(topic);
        if (producer != null) {
            return producer;
        }
        String fullTopic = config.fullTopic(topic);
        try {
            producer = client().newProducer()
                    .topic(fullTopic)
                    .messageRoutingMode(MessageRoutingMode.CustomPartition)
                    .messageRouter(new PartitionPropertyRouter())
                    .sendTimeout((int) Math.min(Integer.MAX_VALUE, config.sendTimeoutMs()), TimeUnit.MILLISECONDS)
                    .blockIfQueueFull(true)
                    .create();
        } catch (PulsarClientException e) {
            throw new MqSendException(context + ": cannot open a producer for topic " + fullTopic + " on Pulsar at "
                    + config.serverUrl() + ": " + describe(e), e);
        }
        producers.put(topic, producer);
        log.info("producing to Pulsar topic {} at {}", fullTopic, config.serverUrl());
        return producer;
    }

    private PulsarClient client() throws PulsarClientException {
        if (client == null) {
            ClientBuilder builder = PulsarClient.builder()
                    .serviceUrl(config.serverUrl())
                    .connectionTimeout(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .maxBackoffInterval(MAX_RECONNECT_BACKOFF_MS, TimeUnit.MILLISECONDS)
                    .operationTimeout((int) Math.min(Integer.MAX_VALUE, config.sendTimeoutMs()), TimeUnit.MILLISECONDS);
            if (!config.roleToken().isEmpty()) {
                builder.authentication(AuthenticationFactory.token(config.roleToken()));
            }
            client = builder.build();
        }
        return client;
    }

    private static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && (cause.getMessage() == null || cause.getMessage().isBlank()
                || cause instanceof ExecutionException)) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    @Override
    public synchronized void close() {
        for (Producer<byte[]> producer : producers.values()) {
            producer.closeAsync();
        }
        producers.clear();
        if (client != null) {
            try {
                client.close();
            } catch (PulsarClientException e) {
                log.warn("closing the Pulsar client of {}: {}", config.serverUrl(), e.getMessage());
            }
            client = null;
        }
    }
}
