package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends batches to Kafka as Canal does: every record of the batch asynchronously, then
 * {@code flush()}, then every future awaited. While Kafka does not answer (broker down, partition leader
 * moving) one line per wait period says so; the producer keeps retrying until {@code delivery.timeout.ms}.
 * Thread-safe: destinations share one producer.
 */
public final class KafkaMqProducer implements MqProducer {

    private static final Logger log = LoggerFactory.getLogger(KafkaMqProducer.class);
    private static final Duration DEFAULT_WAIT_REPORT_PERIOD = Duration.ofSeconds(10);

    private final Producer<byte[], byte[]> producer;
    private final String bootstrapServers;
    private final Duration waitReportPeriod;
    private final ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kafka-mq-wait-reporter");
        t.setDaemon(true);
        return t;
    });

    public KafkaMqProducer(KafkaProducerConfig config) {
        this(config, DEFAULT_WAIT_REPORT_PERIOD);
    }

    public KafkaMqProducer(KafkaProducerConfig config, Duration waitReportPeriod) {
        this.bootstrapServers = config.bootstrapServers();
        this.waitReportPeriod = waitReportPeriod;
        try {
            this.producer = new KafkaProducer<>(config.toProperties());
        } catch (KafkaException e) {
            reporter.shutdownNow();
            throw new IllegalArgumentException("invalid Kafka producer settings (kafka.* keys): " + e.getMessage(), e);
        }
    }

    @Override
    public void sendAll(String context, List<MqRecord> records) throws MqSendException, InterruptedException {
        List<Future<RecordMetadata>> futures = new ArrayList<>(records.size());
        AtomicInteger acknowledged = new AtomicInteger();
        ScheduledFuture<?> report = reporter.scheduleAtFixedRate(() -> log.warn(
                "{}: Kafka ({}) has acknowledged {} of {} records so far; still waiting, nothing is acked meanwhile",
                context, bootstrapServers, acknowledged.get(), records.size()),
                waitReportPeriod.toMillis(), waitReportPeriod.toMillis(), TimeUnit.MILLISECONDS);
        try {
            for (MqRecord r : records) {
                Future<RecordMetadata> future = producer.send(new ProducerRecord<>(r.topic(), r.partition(), null,
                        r.value()), (metadata, error) -> {
                            if (error == null) {
                                acknowledged.incrementAndGet();
                            }
                        });
                futures.add(future);
                if (future.isDone() && failed(future)) {
                    break; // refused at once (no metadata within max.block.ms): the rest would wait as long each
                }
            }
            producer.flush();
            for (int i = 0; i < futures.size(); i++) {
                try {
                    futures.get(i).get();
                } catch (ExecutionException e) {
                    MqRecord failed = records.get(i);
                    throw new MqSendException(context + ": Kafka did not acknowledge the record for " + failed.topic()
                            + "-" + failed.partition() + ": " + e.getCause().getMessage(), e.getCause());
                }
            }
        } catch (KafkaException e) {
            throw new MqSendException(context + ": Kafka refused a record: " + e.getMessage(), e);
        } finally {
            report.cancel(false);
        }
    }

    private static boolean failed(Future<RecordMetadata> future) throws InterruptedException {
        try {
            future.get();
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    @Override
    public void close() {
        reporter.shutdownNow();
        producer.close(Duration.ofSeconds(5));
    }
}
