package dev.canal.connector.mq;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.Message;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Turns one batch into the records Canal's MQ producer would send: split by dynamic
 * topic, then encoded as flat JSON or protobuf packets, each on its fixed or hashed partition. Records of one
 * partition keep batch order.
 */
public final class BatchEncoder {

    private static final int PACKET_VERSION = 1;

    private final MqConfig config;
    private final LongSupplier clock;
    private final FlatMessageBuilder flatBuilder = new FlatMessageBuilder();
    private final FlatMessagePartitioner flatPartitioner;
    private final EntryPartitioner entryPartitioner;

    /** @param clock the wall clock written as {@code ts} into flat messages */
    public BatchEncoder(MqConfig config, LongSupplier clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.flatPartitioner = new FlatMessagePartitioner(config.partitionHash(), config.databaseHash(),
                config.keyChangeToOldPartition());
        this.entryPartitioner = new EntryPartitioner(config.partitionHash(), config.databaseHash(),
                config.keyChangeToOldPartition());
    }

    public BatchEncoder(MqConfig config) {
        this(config, System::currentTimeMillis);
    }

    public List<MqRecord> encode(Message batch) {
        if (batch.isEmpty()) {
            return List.of();
        }
        List<MqRecord> records = new ArrayList<>();
        if (config.dynamicTopic().isEmpty()) {
            if (!config.flatMessage() && config.partitionHash().isEmpty()) {
                records.add(new MqRecord(config.topic(), config.partition(), packet(batch)));
            } else {
                encodeTopic(config.topic(), batch.id(), entries(batch), records);
            }
            return records;
        }
        for (Map.Entry<String, List<CanalEntry.Entry>> topic : byTopic(entries(batch)).entrySet()) {
            encodeTopic(topic.getKey(), batch.id(), topic.getValue(), records);
        }
        return records;
    }

    /** Groups row entries by dynamic topic; BEGIN/END belong to no topic (8.1, last row). */
    private Map<String, List<CanalEntry.Entry>> byTopic(List<CanalEntry.Entry> entries) {
        Map<String, List<CanalEntry.Entry>> topics = new LinkedHashMap<>();
        for (CanalEntry.Entry entry : entries) {
            if (isTransactionBoundary(entry)) {
                continue;
            }
            CanalEntry.Header h = entry.getHeader();
            String topic = config.dynamicTopic().topicFor(h.getSchemaName(), h.getTableName(), config.topic());
            topics.computeIfAbsent(topic, t -> new ArrayList<>()).add(entry);
        }
        return topics;
    }

    private void encodeTopic(String topic, long batchId, List<CanalEntry.Entry> entries, List<MqRecord> records) {
        int partitions = config.partitionsFor(topic);
        if (config.flatMessage()) {
            for (FlatMessage message : flatBuilder.build(batchId, rowEntries(entries), clock.getAsLong())) {
                if (config.partitionHash().isEmpty()) {
                    records.add(new MqRecord(topic, config.partition(), FlatMessageJson.toBytes(message)));
                } else {
                    flatPartitioner.split(message, partitions).forEach((partition, share) ->
                            records.add(new MqRecord(topic, partition, FlatMessageJson.toBytes(share))));
                }
            }
        } else if (config.partitionHash().isEmpty()) {
            records.add(new MqRecord(topic, config.partition(), packet(batchId, entries)));
        } else {
            entryPartitioner.split(rowEntries(entries), partitions).forEach((partition, share) ->
                    records.add(new MqRecord(topic, partition, packet(batchId, share))));
        }
    }

    /**
     * A whole batch as one MESSAGES packet: a raw batch ships its stored bytes in a packet without version
     * field (Canal's fast path), a decoded one gets version 1 and loses BEGIN/END when they are filtered (docs/mq.md).
     */
    private byte[] packet(Message batch) {
        if (!batch.raw()) {
            return packet(batch.id(), batch.entries());
        }
        CanalPacket.Messages body = CanalPacket.Messages.newBuilder().setBatchId(batch.id())
                .addAllMessages(batch.rawEntries()).build();
        return CanalPacket.Packet.newBuilder().setType(CanalPacket.PacketType.MESSAGES).setBody(body.toByteString())
                .build().toByteArray();
    }

    private byte[] packet(long batchId, List<CanalEntry.Entry> entries) {
        CanalPacket.Messages.Builder body = CanalPacket.Messages.newBuilder().setBatchId(batchId);
        for (CanalEntry.Entry entry : entries) {
            if (!(config.filterTransactionEntry() && isTransactionBoundary(entry))) {
                body.addMessages(entry.toByteString());
            }
        }
        return CanalPacket.Packet.newBuilder().setVersion(PACKET_VERSION).setType(CanalPacket.PacketType.MESSAGES)
                .setBody(body.build().toByteString()).build().toByteArray();
    }

    private static List<RowEntry> rowEntries(List<CanalEntry.Entry> entries) {
        List<RowEntry> rows = new ArrayList<>(entries.size());
        for (CanalEntry.Entry entry : entries) {
            if (entry.getEntryType() == EntryType.ROWDATA) {
                rows.add(RowEntry.of(entry));
            }
        }
        return rows;
    }

    private static List<CanalEntry.Entry> entries(Message batch) {
        if (!batch.raw()) {
            return batch.entries();
        }
        List<CanalEntry.Entry> entries = new ArrayList<>(batch.rawEntries().size());
        for (ByteString raw : batch.rawEntries()) {
            try {
                entries.add(CanalEntry.Entry.parseFrom(raw));
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("batch " + batch.id() + " holds bytes that are not an entry", e);
            }
        }
        return entries;
    }

    private static boolean isTransactionBoundary(CanalEntry.Entry entry) {
        return entry.getEntryType() == EntryType.TRANSACTIONBEGIN || entry.getEntryType() == EntryType.TRANSACTIONEND;
    }
}
