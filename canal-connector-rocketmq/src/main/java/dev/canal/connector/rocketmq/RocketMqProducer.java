package dev.canal.connector.rocketmq;

import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends batches to RocketMQ as Canal does: one message per record, with {@code rocketmq.tag}, on the message queue
 * the record's partition picks from the topic's queues ({@code queues[partition % count]}, docs/mq.md), the
 * first message of a topic through RocketMQ's queue selector (which also creates a topic the broker auto-creates),
 * the rest of that queue's messages in synchronous batch sends. Sends to one queue run in batch order, one after the
 * other, so each queue keeps the order of its rows. A batch counts as sent only when every send returned
 * {@code SEND_OK}: any other status (the broker could not flush to disk or reach its slave in time), an exception or
 * a timeout fails the batch, which the worker rolls back and sends again. Destinations share the one producer.
 */
public final class RocketMqProducer implements MqProducer {

    private static final Logger log = LoggerFactory.getLogger(RocketMqProducer.class);
    /** Under the client's 4 MiB limit of one batch, with room for each message's own header. */
    private static final int MAX_BATCH_BYTES = 1 << 20;
    private static final int MAX_BATCH_MESSAGES = 512;
    /** How long a topic's queue list is reused before the selector asks the client's route again. */
    private static final long QUEUES_TTL_NANOS = 30_000_000_000L;
    private static final AtomicLong INSTANCES = new AtomicLong();

    private record Group(String topic, int partition) {
    }

    private record Queues(List<MessageQueue> queues, long fetchedAt) {
    }

    private final RocketMqConfig config;
    private final DefaultMQProducer producer;
    private final Map<String, Queues> queuesByTopic = new HashMap<>(); // guarded by this
    private boolean started; // guarded by this

    public RocketMqProducer(RocketMqConfig config) {
        this.config = config;
        String traceTopic = config.customizedTraceTopic().isEmpty() ? null : config.customizedTraceTopic();
        this.producer = new DefaultMQProducer(config.producerGroup(), null, config.enableMessageTrace(), traceTopic);
        producer.setNamesrvAddr(config.namesrvAddr());
        if (!config.namespace().isEmpty()) {
            producer.setNamespace(config.namespace());
        }
        producer.setRetryTimesWhenSendFailed(config.retryTimesWhenSendFailed());
        producer.setVipChannelEnabled(config.vipChannelEnabled());
        producer.setSendMsgTimeout(config.sendTimeoutMs());
        // one client instance per producer, so that several in one JVM (tests, benchmarks) never share a group
        producer.setInstanceName("canal-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet());
    }

    @Override
    public synchronized void sendAll(String context, List<MqRecord> records) throws MqSendException {
        start(context);
        Map<Group, List<Message>> groups = new LinkedHashMap<>();
        for (MqRecord r : records) {
            groups.computeIfAbsent(new Group(r.topic(), r.partition()), g -> new ArrayList<>())
                    .add(new Message(r.topic(), config.tag(), r.value()));
        }
        for (Map.Entry<Group, List<Message>> group : groups.entrySet()) {
            try {
                send(context, group.getKey(), group.getValue());
            } catch (MqSendException e) {
                queuesByTopic.clear(); // the next batch asks for the routes again
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure(context, group.getKey(), e);
            } catch (Exception e) {
                queuesByTopic.clear();
                throw failure(context, group.getKey(), e);
            }
        }
    }

    /** One queue's messages in order: the first through the selector unless the queues are known, then batches. */
    private void send(String context, Group group, List<Message> messages) throws Exception {
        int next = 0;
        MessageQueue queue = knownQueue(group);
        if (queue == null) {
            AtomicReference<List<MessageQueue>> seen = new AtomicReference<>();
            SendResult result = producer.send(messages.get(0), (mqs, msg, arg) -> {
                seen.set(List.copyOf(mqs));
                return mqs.get(group.partition() % mqs.size());
            }, null);
            requireOk(context, group, result);
            queuesByTopic.put(group.topic(), new Queues(seen.get(), System.nanoTime()));
            queue = result.getMessageQueue();
            next = 1;
        }
        while (next < messages.size()) {
            int end = chunkEnd(messages, next);
            SendResult result = end - next == 1 ? producer.send(messages.get(next), queue)
                    : producer.send(messages.subList(next, end), queue);
            requireOk(context, group, result);
            next = end;
        }
    }

    private MessageQueue knownQueue(Group group) {
        Queues known = queuesByTopic.get(group.topic());
        if (known == null || known.queues().isEmpty() || System.nanoTime() - known.fetchedAt() > QUEUES_TTL_NANOS) {
            return null;
        }
        return known.queues().get(group.partition() % known.queues().size());
    }

    /** The end of the batch starting at {@code from}: as many messages as fit the size and count limits, one at least. */
    private static int chunkEnd(List<Message> messages, int from) {
        int end = from;
        long bytes = 0;
        while (end < messages.size() && end - from < MAX_BATCH_MESSAGES) {
            bytes += messages.get(end).getBody().length;
            if (bytes > MAX_BATCH_BYTES && end > from) {
                break;
            }
            end++;
        }
        return end;
    }

    private void requireOk(String context, Group group, SendResult result) throws MqSendException {
        if (result == null || result.getSendStatus() != SendStatus.SEND_OK) {
            throw new MqSendException(context + ": RocketMQ answered " + (result == null ? "nothing"
                    : result.getSendStatus()) + " for topic " + group.topic() + " partition " + group.partition()
                    + " (not SEND_OK); the batch is sent again", null);
        }
    }

    private MqSendException failure(String context, Group group, Exception e) {
        return new MqSendException(context + ": RocketMQ (name server " + config.namesrvAddr()
                + ") did not take the messages of topic " + group.topic() + " partition " + group.partition() + ": "
                + describe(e), e);
    }

    private void start(String context) throws MqSendException {
        if (started) {
            return;
        }
        try {
            producer.start();
            started = true;
            log.info("RocketMQ producer of group {} started, name server {}", config.producerGroup(),
                    config.namesrvAddr());
        } catch (MQClientException | RuntimeException e) {
            throw new MqSendException(context + ": cannot start the RocketMQ producer of group "
                    + config.producerGroup() + " (name server " + config.namesrvAddr() + "): " + describe(e), e);
        }
    }

    private static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && (cause.getMessage() == null || cause.getMessage().isBlank())) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() != null ? cause.getMessage() : cause.toString();
        int help = message.indexOf("\nSee "); // the client appends a FAQ link to its messages
        return help > 0 ? message.substring(0, help) : message;
    }

    @Override
    public synchronized void close() {
        if (started) {
            producer.shutdown();
            started = false;
        }
    }
}
