package dev.canal.connector.rocketmq;

import dev.canal.testsupport.RocketMqBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/** A plain consumer's view of a topic, as a downstream application would have it: every queue read from its start. */
final class QueueReader {

    private static int consumers;

    private QueueReader() {
    }

    /**
     * The topic's messages by queue id, each queue in its order, once at least {@code expected} arrived (or the time
     * is up), then once more: more than expected would mean duplicates the test should see.
     */
    @SuppressWarnings("deprecation") // the pull consumer reads queues by offset, which is what a test wants
    static Map<Integer, List<MessageExt>> read(RocketMqBroker broker, String topic, int expected, Duration timeout)
            throws Exception {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer("test_reader_" + (++consumers));
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName("test-reader-" + consumers);
        consumer.start();
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            Map<Integer, List<MessageExt>> byQueue = new TreeMap<>();
            while (true) {
                byQueue.clear();
                try {
                    for (MessageQueue queue : consumer.fetchSubscribeMessageQueues(topic)) {
                        byQueue.put(queue.getQueueId(), readQueue(consumer, queue));
                    }
                } catch (org.apache.rocketmq.client.exception.MQClientException e) {
                    // the topic does not exist yet
                }
                int count = byQueue.values().stream().mapToInt(List::size).sum();
                if (count >= expected || System.nanoTime() > deadline) {
                    return byQueue;
                }
                Thread.sleep(100); // polling the broker's queues: the pull consumer has no wait of its own here
            }
        } finally {
            consumer.shutdown();
        }
    }

    /** Every message of the queue from offset 0, in order. */
    static List<MessageExt> all(Map<Integer, List<MessageExt>> byQueue) {
        List<MessageExt> all = new ArrayList<>();
        byQueue.values().forEach(all::addAll);
        return all;
    }

    @SuppressWarnings("deprecation")
    private static List<MessageExt> readQueue(DefaultMQPullConsumer consumer, MessageQueue queue) throws Exception {
        List<MessageExt> messages = new ArrayList<>();
        long offset = 0;
        while (true) {
            PullResult result = consumer.pull(queue, "*", offset, 256, 5_000);
            if (result.getPullStatus() != PullStatus.FOUND) {
                return messages;
            }
            messages.addAll(result.getMsgFoundList());
            offset = result.getNextBeginOffset();
        }
    }
}
