package dev.canal.connector.mq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EventType;
import java.util.List;

/**
 * One batch every broker's tests send, and the flat messages Canal's producer writes for it, byte for byte
 * (docs/mq.md, flat messages): an insert of two rows (one with NULLs and a newline), an update, a delete and a DDL.
 * Only {@code ts}, the wall clock when a message is built, differs from run to run.
 */
public final class CanalFormatSample {

    /** The ALTER's offset: the cursor reaches it when the whole sample is acked. */
    public static final long LAST_OFFSET = 200;

    private CanalFormatSample() {
    }

    /** A transaction with the three row changes, then the DDL. */
    public static List<List<CanalEntry.Entry>> transactions() {
        return List.of(
                TestRows.transaction(100, List.of(
                        TestRows.insert(101, "test", "user", List.of(user(1, "alice", "first\nline", "9.90"),
                                user(2, null, null, "0.00"))),
                        TestRows.update(102, "test", "user",
                                List.of(row(List.of(id(1), name("alice")), List.of(id(1), name("bob").asUpdated())))),
                        TestRows.delete(103, "test", "user", List.of(List.of(id(2), name(null)))))),
                List.of(TestRows.ddl(LAST_OFFSET, "test", "user", EventType.ALTER, "alter table user add c int")));
    }

    /** The flat messages of {@link #transactions()} in batch 1, with {@code ts} written as 0. */
    public static List<String> flatJson() {
        return List.of(
                "{\"data\":[{\"id\":\"1\",\"name\":\"alice\",\"note\":\"first\\nline\",\"price\":\"9.90\"},"
                        + "{\"id\":\"2\",\"name\":null,\"note\":null,\"price\":\"0.00\"}],\"database\":\"test\","
                        + "\"es\":101000,\"gtid\":\"\",\"id\":1,\"isDdl\":false,\"mysqlType\":{\"id\":\"int(11)\","
                        + "\"name\":\"varchar(32)\",\"note\":\"text\",\"price\":\"decimal(10,2)\"},\"old\":null,"
                        + "\"pkNames\":[\"id\"],\"sql\":\"\",\"sqlType\":{\"id\":4,\"name\":12,\"note\":2005,"
                        + "\"price\":3},\"table\":\"user\",\"ts\":0,\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":\"1\",\"name\":\"bob\"}],\"database\":\"test\",\"es\":102000,\"gtid\":\"\","
                        + "\"id\":1,\"isDdl\":false,\"mysqlType\":{\"id\":\"int(11)\",\"name\":\"varchar(32)\"},"
                        + "\"old\":[{\"name\":\"alice\"}],\"pkNames\":[\"id\"],\"sql\":\"\",\"sqlType\":{\"id\":4,"
                        + "\"name\":12},\"table\":\"user\",\"ts\":0,\"type\":\"UPDATE\"}",
                "{\"data\":[{\"id\":\"2\",\"name\":null}],\"database\":\"test\",\"es\":103000,\"gtid\":\"\","
                        + "\"id\":1,\"isDdl\":false,\"mysqlType\":{\"id\":\"int(11)\",\"name\":\"varchar(32)\"},"
                        + "\"old\":null,\"pkNames\":[\"id\"],\"sql\":\"\",\"sqlType\":{\"id\":4,\"name\":12},"
                        + "\"table\":\"user\",\"ts\":0,\"type\":\"DELETE\"}",
                "{\"data\":null,\"database\":\"test\",\"es\":200000,\"gtid\":\"\",\"id\":1,\"isDdl\":true,"
                        + "\"mysqlType\":null,\"old\":null,\"pkNames\":null,\"sql\":\"alter table user add c int\","
                        + "\"sqlType\":null,\"table\":\"user\",\"ts\":0,\"type\":\"ALTER\"}");
    }

    /** Checks each message's {@code ts} lies in {@code [from, to]} and writes it as 0, for the exact comparison. */
    public static List<String> withoutTs(List<String> json, long from, long to) {
        return json.stream().map(s -> {
            long ts = Long.parseLong(s.replaceAll(".*\"ts\":(\\d+).*", "$1"));
            assertThat(ts).isBetween(from, to);
            return s.replaceAll("\"ts\":\\d+", "\"ts\":0");
        }).toList();
    }
}
