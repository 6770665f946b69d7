package dev.canal.connector.mq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BatchEncoderTest {

    private static BatchEncoder encoder(String... keyValues) {
        Properties p = new Properties();
        p.setProperty(MqConfig.TOPIC.name(), "example");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new BatchEncoder(MqConfig.from(p), () -> 42L);
    }

    private static List<CanalEntry.Entry> usersTransaction() {
        return TestRows.transaction(10, List.of(
                TestRows.insert(11, "test", "user", List.of(List.of(id(1), name("a")), List.of(id(2), name("b")),
                        List.of(id(3), name("c")))),
                TestRows.ddl(12, "test", "user", EventType.ALTER, "alter table user add c int")));
    }

    private static CanalPacket.Messages body(MqRecord record) throws InvalidProtocolBufferException {
        return CanalPacket.Messages.parseFrom(CanalPacket.Packet.parseFrom(record.value()).getBody());
    }

    private static List<CanalEntry.Entry> entries(MqRecord record) throws InvalidProtocolBufferException {
        List<CanalEntry.Entry> entries = new ArrayList<>();
        for (ByteString bytes : body(record).getMessagesList()) {
            entries.add(CanalEntry.Entry.parseFrom(bytes));
        }
        return entries;
    }

    @Test
    void rawBatchShipsStoredBytesInAPacketWithoutVersion() throws Exception {
        List<CanalEntry.Entry> tx = usersTransaction();
        Message batch = Message.ofRawEntries(7, tx.stream().map(CanalEntry.Entry::toByteString).toList());

        List<MqRecord> records = encoder("canal.mq.flatMessage", "false", "canal.mq.partition", "2").encode(batch);

        assertThat(records).hasSize(1);
        assertThat(records.get(0).partition()).isEqualTo(2);
        CanalPacket.Packet packet = CanalPacket.Packet.parseFrom(records.get(0).value());
        assertThat(packet.hasVersion()).isFalse();
        assertThat(packet.getType()).isEqualTo(CanalPacket.PacketType.MESSAGES);
        assertThat(body(records.get(0)).getBatchId()).isEqualTo(7);
        assertThat(body(records.get(0)).getMessagesList()).containsExactlyElementsOf(
                tx.stream().map(CanalEntry.Entry::toByteString).toList());
    }

    @Test
    void decodedBatchGetsVersionOneAndLosesBeginEndOnlyWhenFiltered() throws Exception {
        Message batch = Message.ofEntries(3, usersTransaction());

        MqRecord kept = encoder("canal.mq.flatMessage", "false").encode(batch).get(0);
        MqRecord filtered = encoder("canal.mq.flatMessage", "false",
                "canal.instance.filter.transaction.entry", "true").encode(batch).get(0);

        assertThat(CanalPacket.Packet.parseFrom(kept.value()).getVersion()).isEqualTo(1);
        assertThat(entries(kept)).extracting(CanalEntry.Entry::getEntryType).containsExactly(
                EntryType.TRANSACTIONBEGIN, EntryType.ROWDATA, EntryType.ROWDATA, EntryType.TRANSACTIONEND);
        assertThat(entries(filtered)).extracting(CanalEntry.Entry::getEntryType)
                .containsExactly(EntryType.ROWDATA, EntryType.ROWDATA);
    }

    @Test
    void protobufHashCutsEntriesIntoSingleRowsAndSendsDdlToPartitionZero() throws Exception {
        Message batch = Message.ofEntries(3, usersTransaction());

        List<MqRecord> records = encoder("canal.mq.flatMessage", "false", "canal.mq.partitionsNum", "3",
                "canal.mq.partitionHash", "test.user:ID").encode(batch);

        List<String> placed = new ArrayList<>();
        for (MqRecord record : records) {
            assertThat(CanalPacket.Packet.parseFrom(record.value()).getVersion()).isEqualTo(1);
            for (CanalEntry.Entry entry : entries(record)) {
                assertThat(entry.getEntryType()).isEqualTo(EntryType.ROWDATA);
                CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
                placed.add(change.getIsDdl() ? "ddl@" + record.partition()
                        : change.getRowDatas(0).getAfterColumns(0).getValue() + "@" + record.partition());
                assertThat(change.getRowDatasCount()).isLessThanOrEqualTo(1);
            }
        }
        assertThat(placed).containsExactlyInAnyOrder("1@" + partitionOf("1"), "2@" + partitionOf("2"),
                "3@" + partitionOf("3"), "ddl@0");
    }

    private static int partitionOf(String id) {
        return Math.abs(Math.abs("test".hashCode() ^ id.hashCode()) % 3);
    }

    @Test
    void flatRowsAreGroupedPerPartitionWithOldKeptAligned() {
        CanalEntry.Entry update = TestRows.update(11, "test", "user", List.of(
                row(List.of(id(1), name("a")), List.of(id(1), name("a2").asUpdated())),
                row(List.of(id(2), name("b")), List.of(id(2), name("b2").asUpdated())),
                row(List.of(id(3), name("c")), List.of(id(3), name("c2").asUpdated()))));
        FlatMessage message = new FlatMessageBuilder().build(1, RowEntry.of(update), 0);

        var shares = new FlatMessagePartitioner(PartitionHashRules.parse("k", "test.user:$pk$"), true, false)
                .split(message, 3);

        shares.forEach((partition, share) -> {
            assertThat(share.old()).hasSameSizeAs(share.data());
            for (int i = 0; i < share.data().size(); i++) {
                String key = share.data().get(i).get("id");
                assertThat(partition).isEqualTo(partitionOf(key));
                assertThat(share.old().get(i).get("name") + "2").isEqualTo(share.data().get(i).get("name"));
            }
        });
        assertThat(shares.values().stream().mapToInt(s -> s.data().size()).sum()).isEqualTo(3);
    }

    /** Key 1 changed to the first key hashing to another of 3 partitions. */
    private static final long KEY_FROM = 1;
    private static final long KEY_TO = keyInAnotherPartition(KEY_FROM);
    private static final CanalEntry.Entry KEY_CHANGE = TestRows.update(11, "test", "user", List.of(
            row(List.of(id(KEY_FROM), name("a")), List.of(id(KEY_TO).asUpdated(), name("a")))));

    private static long keyInAnotherPartition(long from) {
        long to = from + 1;
        while (partitionOf(Long.toString(to)) == partitionOf(Long.toString(from))) {
            to++;
        }
        return to;
    }

    @Test
    void aFlatKeyChangeGoesToTheNewKeysPartitionOnlyAsInCanalAndToBothWhenAsked() {
        FlatMessage message = new FlatMessageBuilder().build(1, RowEntry.of(KEY_CHANGE), 0);
        PartitionHashRules byPk = PartitionHashRules.parse("k", "test.user:$pk$");

        var canals = new FlatMessagePartitioner(byPk, true, false).split(message, 3);
        var both = new FlatMessagePartitioner(byPk, true, true).split(message, 3);
        var byTable = new FlatMessagePartitioner(PartitionHashRules.parse("k", "test.user"), true, true)
                .split(message, 3);

        assertThat(canals).containsOnlyKeys(partitionOf(Long.toString(KEY_TO)));
        assertThat(both).containsOnlyKeys(partitionOf(Long.toString(KEY_FROM)), partitionOf(Long.toString(KEY_TO)));
        assertThat(byTable).containsOnlyKeys(Math.abs("user".hashCode()) % 3);
    }

    @Test
    void aProtobufKeyChangeGoesToTheNewKeysPartitionOnlyUnlessAsked() {
        PartitionHashRules byPk = PartitionHashRules.parse("k", "test.user:$pk$");

        assertThat(new EntryPartitioner(byPk, true, false).split(List.of(RowEntry.of(KEY_CHANGE)), 3))
                .containsOnlyKeys(partitionOf(Long.toString(KEY_TO)));
        assertThat(new EntryPartitioner(byPk, true, true).split(List.of(RowEntry.of(KEY_CHANGE)), 3))
                .containsOnlyKeys(partitionOf(Long.toString(KEY_FROM)), partitionOf(Long.toString(KEY_TO)));
    }

    @Test
    void flatMessagesWithoutHashGoToTheFixedPartitionOnePerEntry() {
        List<MqRecord> records = encoder("canal.mq.partition", "1").encode(Message.ofEntries(5, usersTransaction()));

        assertThat(records).extracting(MqRecord::partition).containsExactly(1, 1);
        assertThat(new String(records.get(0).value(), StandardCharsets.UTF_8)).contains("\"id\":5,").contains("\"ts\":42,");
    }
}
