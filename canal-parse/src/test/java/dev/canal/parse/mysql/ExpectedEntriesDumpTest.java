package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rendering and comparison {@link ExpectedEntriesIT} relies on: masking, presence, escaping, the diff report. */
class ExpectedEntriesDumpTest {

    @Test
    void runDependentFieldsAreMaskedButTheirPresenceShows() {
        CanalEntry.Header header = CanalEntry.Header.newBuilder().setLogfileName("mysql-bin.000007")
                .setLogfileOffset(4711).setServerId(3).setExecuteTime(1_700_000_000_000L).setSchemaName("s")
                .setTableName("t").setEventLength(41).setEventType(EventType.INSERT)
                .addProps(CanalEntry.Pair.newBuilder().setKey("curtGtid").setValue("uuid:12"))
                .addProps(CanalEntry.Pair.newBuilder().setKey("rowsCount").setValue("1")).build();
        CanalEntry.RowChange change = CanalEntry.RowChange.newBuilder().setTableId(99).setEventType(EventType.INSERT)
                .setIsDdl(false).addRowDatas(CanalEntry.RowData.newBuilder().addAfterColumns(CanalEntry.Column
                        .newBuilder().setIndex(0).setName("id").setIsNull(true).setMysqlType("int")))
                .build();
        CanalEntry.Entry entry = CanalEntry.Entry.newBuilder().setHeader(header).setEntryType(EntryType.ROWDATA)
                .setStoreValue(change.toByteString()).build();

        assertThat(EntryDump.render(List.of(entry))).containsExactly(
                "entry 1 entryType=ROWDATA",
                "  header logfileName=* logfileOffset=* serverId=* executeTime=* schemaName=\"s\" tableName=\"t\" "
                        + "eventLength=41 eventType=INSERT props=[curtGtid=*, rowsCount=\"1\"]",
                "  rowChange tableId=* eventType=INSERT isDdl=false",
                "  row 1",
                "    after  index=0 name=\"id\" isNull=true mysqlType=\"int\"");
    }

    @Test
    void binaryAndControlCharactersAreEscapedReadably() {
        assertThat(EntryDump.quoted("a\\b\"c\n\t\u0000\u007f\u0080\u00ffé😀"))
                .isEqualTo("\"a\\\\b\\\"c\\n\\t\\x00\\x7f\\x80ÿé😀\"");
    }

    @Test
    void aDifferenceIsReportedAtItsFirstLineWithContextAndTheOtherDifferingLines() {
        List<String> expected = List.of("a", "b", "c", "d", "e");
        List<String> actual = List.of("a", "B", "c", "D", "e");

        assertThatThrownBy(() -> ExpectedEntriesIT.assertSameLines("server", Path.of("x.txt"), expected, actual))
                .hasMessageContaining("differ from x.txt at line 2")
                .hasMessageContaining("2 of the first 5 lines differ, at 2, 4")
                .hasMessageContaining(">     2 b").hasMessageContaining(">     2 B");
        ExpectedEntriesIT.assertSameLines("server", Path.of("x.txt"), expected, List.copyOf(expected));
    }

    @Test
    void aMissingTailIsADifference() {
        assertThatThrownBy(() -> ExpectedEntriesIT.assertSameLines("server", Path.of("x.txt"), List.of("a", "b"),
                List.of("a")))
                .hasMessageContaining("at line 2 (expected 2 lines, got 1")
                .hasMessageContaining("(end of file)");
    }
}
