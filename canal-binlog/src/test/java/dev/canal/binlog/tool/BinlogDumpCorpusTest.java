package dev.canal.binlog.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.binlog.file.BinlogCorpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Conformance over the shared binlog corpus, through the binlog-dump tool's own code path: every sound binlog
 * v4 file (MySQL 5.0+, MariaDB) decodes to its end, rows included; the deliberately broken files and the old
 * formats fail naming the file, the offset and the reason. Skipped where the corpus is absent.
 */
class BinlogDumpCorpusTest {

    /** Where and why each file the MANIFEST describes as broken or pre-v4 must fail. */
    private record Failure(long offset, String reason) {
    }

    private static final Map<String, Failure> EXPECTED_FAILURES = Map.ofEntries(
            // not binlogs at all / not readable without a key
            Map.entry("canal/parse/tsdb/mysql-bin.000001", new Failure(0, "not a binlog file")),
            Map.entry("mysql-testsuite-9.7.4/std_data/rpl_nogtid_encryption_master-bin.000002",
                    new Failure(0, "encrypted binlog not supported")),
            Map.entry("mariadb-test-data-10.11.19/std_data/binlog_before_20574.bin",
                    new Failure(256, "encrypted binlog not supported")),
            // binlog formats before v4 (MySQL 3.23 / 4.x)
            Map.entry("mariadb-test-data-10.11.19/std_data/trunc_binlog.000001",
                    new Failure(4, "binlog format v3 (MySQL 4.x START_EVENT_V3) is not supported")),
            Map.entry("mariadb-test-data-10.11.19/std_data/master-bin.000001",
                    new Failure(4, "binlog format v2 (MySQL 4.x START_EVENT_V3) is not supported")),
            Map.entry("mariadb-test-data-10.11.19/std_data/bug47142_master-bin.000001",
                    new Failure(4, "binlog format v3")),
            Map.entry("mariadb-test-data-10.11.19/suite/binlog/std_data/binlog_old_version_4_1.000001",
                    new Failure(4, "binlog format v3")),
            // truncated or corrupt on purpose
            Map.entry("mysql-testsuite-9.7.4/std_data/binlog_no_fd_event.000001",
                    new Failure(4, "the first event is TYPE_48, not a FORMAT_DESCRIPTION")),
            Map.entry("rust_mysql_common/binlog_truncated_event.000001", new Failure(4, "truncated event header")),
            Map.entry("rust_mysql_common/binlog_truncated_prev_gtid_event.000001",
                    new Failure(120, "truncated event header")),
            Map.entry("mariadb-test-data-10.11.19/std_data/bug11747416_32228_binlog.000001",
                    new Failure(316, "truncated WRITE_ROWS_V1 event: its header says 65567 bytes")),
            Map.entry("rust_mysql_common/corrupt-relay-bin.000624", new Failure(91204, "QUERY event: length")),
            Map.entry("mariadb-test-data-10.11.19/std_data/mdev-39404-binlog.000001",
                    new Failure(256, "MARIA_GTID event: CRC32 mismatch")),
            Map.entry("mariadb-test-data-10.11.19/suite/binlog/std_data/invalid_row_v2_tag.001",
                    new Failure(256, "WRITE_ROWS_V2 event")),
            // MySQL 5.2 development tree (WL#2325) with an event layout no release shipped
            Map.entry("rust_mysql_common/ver_5_1-wl2325_r.001", new Failure(428, "XID event body has 19 bytes")),
            Map.entry("rust_mysql_common/ver_5_1-wl2325_s.001", new Failure(411, "PRE_GA_WRITE_ROWS event")),
            // binlog-recovery test files whose events were edited after writing: their CRC32 no longer matches
            Map.entry("mysql-testsuite-9.7.4/std_data/binlog_recovery/duplicate_xid.000001",
                    new Failure(672, "XID event: CRC32 mismatch")),
            Map.entry("mysql-testsuite-9.7.4/std_data/binlog_recovery/duplicate_xid_ddl.000001",
                    new Failure(507, "QUERY event: CRC32 mismatch")),
            Map.entry("mysql-testsuite-9.7.4/std_data/binlog_recovery/duplicate_xid_xa_prepare.000001",
                    new Failure(884, "XA_PREPARE event: CRC32 mismatch")),
            Map.entry("mysql-testsuite-9.7.4/std_data/binlog_recovery/malformed_xid_xa_commit.000001",
                    new Failure(889, "QUERY event: CRC32 mismatch")),
            Map.entry("mysql-testsuite-9.7.4/std_data/binlog_recovery/malformed_xid_xa_rollback.000001",
                    new Failure(889, "QUERY event: CRC32 mismatch")));

    @Test
    void expectedFailuresNameFilesTheManifestLists() {
        Path corpus = BinlogCorpus.require();
        assertThat(BinlogCorpus.manifestFiles(corpus)).hasSizeGreaterThan(100)
                .containsAll(EXPECTED_FAILURES.keySet());
    }

    @TestFactory
    Stream<DynamicTest> everySoundV4FileDecodesToTheEnd() {
        Path corpus = BinlogCorpus.require();
        return BinlogCorpus.manifestFiles(corpus).stream()
                .filter(f -> !EXPECTED_FAILURES.containsKey(f))
                .map(f -> dynamicTest(f, () -> {
                    Result r = dump(corpus.resolve(f), "json");
                    assertThat(r.status).as("binlog-dump %s: %s", f, r.err).isZero();
                    assertThat(r.err).isEmpty();
                }));
    }

    @TestFactory
    Stream<DynamicTest> brokenAndPreV4FilesFailNamingFileOffsetAndReason() {
        Path corpus = BinlogCorpus.require();
        return EXPECTED_FAILURES.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> dynamicTest(e.getKey(), () -> {
                    Path file = corpus.resolve(e.getKey());
                    Result r = dump(file, "text");
                    assertThat(r.status).as(r.err).isEqualTo(1);
                    assertThat(r.err).startsWith("binlog-dump: " + file + " at offset " + e.getValue().offset() + ": ")
                            .contains(e.getValue().reason());
                }));
    }

    @Test
    void textAndJsonLinesCarryTypePositionAndDecodedRows() {
        Path file = BinlogCorpus.require().resolve("go-mysql/tcb-eval002c-bin.003320");
        Result text = dump(file, "text");
        Result json = dump(file, "json");
        assertThat(text.status).isZero();
        assertThat(text.out.lines()).anySatisfy(l -> assertThat(l)
                .startsWith("WRITE_ROWS_V2 tcb-eval002c-bin.003320:284 ")
                .contains("rowCount=17").contains("@2=-10.55, @3=-11, @4=-10.550"));
        assertThat(json.out.lines()).allSatisfy(l -> assertThat(l).startsWith("{\"type\":\"").endsWith("}"))
                .anySatisfy(l -> assertThat(l).startsWith("{\"type\":\"WRITE_ROWS_V2\",\"file\":\"tcb-eval002c-bin.003320\","
                        + "\"position\":284,").contains("\"rows\":[{\"after\":{\"@1\":1,\"@2\":-10.55,"));
    }

    @Test
    void jsonFormatIsOneParseableObjectPerLineWithTypedValues() throws Exception {
        Path corpus = BinlogCorpus.require();
        ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        for (String f : List.of("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001",
                "generated-mysql-9.7.4-debian-sid/mysql97-bin.000003", "generated-mysql-5.5.9-mxj/mysql-bin.000001",
                "rust_mysql_common/mariadb-bin.000001", "mysql-binlog-connector-java/mysql-bin.compressed")) {
            Result r = dump(corpus.resolve(f), "json");
            assertThat(r.status).as(r.err).isZero();
            for (String line : r.out.lines().toList()) {
                JsonNode node = mapper.readTree(line);
                assertThat(node.get("type").isTextual()).as(line).isTrue();
                assertThat(node.has("position") && node.has("timestamp")).as(line).isTrue();
            }
        }
        JsonNode tNum = mapper.readTree(dump(corpus.resolve("generated-mysql-9.7.4-debian-sid/mysql97-bin.000001"),
                "json").out.lines().filter(l -> l.contains("\"cdc.t_num\"") && l.contains("WRITE_ROWS")).findFirst()
                .orElseThrow());
        JsonNode first = tNum.get("rows").get(0).get("after");
        assertThat(first.get("biu").asText()).isEqualTo("18446744073709551615");
        assertThat(first.get("dec2").decimalValue()).isEqualByComparingTo(
                "12345678901234567890123456789012345.123456789012345678901234567890");
        assertThat(first.get("ti").asLong()).isEqualTo(-128);
    }

    @Test
    void exitsWithTwoOnBadUsageOrAnUnreadableFile() {
        assertThat(run(List.of()).status).isEqualTo(2);
        assertThat(run(List.of("--format", "xml", "f")).status).isEqualTo(2);
        Result missing = run(List.of("/nonexistent/mysql-bin.000001"));
        assertThat(missing.status).isEqualTo(2);
        assertThat(missing.err).isEqualTo("binlog-dump: cannot read /nonexistent/mysql-bin.000001: no such file");
    }

    private record Result(int status, String out, String err) {
    }

    private static Result dump(Path file, String format) {
        return run(List.of("--format", format, file.toString()));
    }

    private static Result run(List<String> args) {
        java.io.StringWriter out = new java.io.StringWriter();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = BinlogDump.run(args.toArray(String[]::new), out, errStream);
        }
        return new Result(status, out.toString(), err.toString(StandardCharsets.UTF_8).strip());
    }
}
