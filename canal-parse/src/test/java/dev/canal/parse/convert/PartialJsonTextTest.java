package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.column.JsonDiff;
import dev.canal.binlog.column.JsonDiff.Operation;
import dev.canal.binlog.column.PartialJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartialJsonTextTest {

    @Test
    void oneDiffIsOneCallOverTheColumn() {
        assertThat(text(new JsonDiff(Operation.REPLACE, "$.a", "2"))).isEqualTo("JSON_REPLACE(doc, '$.a', 2)");
        assertThat(text(new JsonDiff(Operation.REMOVE, "$.b[0]", null))).isEqualTo("JSON_REMOVE(doc, '$.b[0]')");
    }

    @Test
    void consecutiveDiffsOfOneFunctionShareACallAndEachFunctionWrapsTheCallsBefore() {
        assertThat(text(new JsonDiff(Operation.REPLACE, "$.a", "2"), new JsonDiff(Operation.REPLACE, "$.s", "\"new\""),
                new JsonDiff(Operation.INSERT, "$.c", "true"), new JsonDiff(Operation.INSERT, "$.l[1]", "[1, 2]")))
                .isEqualTo("JSON_ARRAY_INSERT(JSON_INSERT(JSON_REPLACE(doc, '$.a', 2, '$.s', \"new\"), '$.c', true),"
                        + " '$.l[1]', [1, 2])");
    }

    private static String text(JsonDiff... diffs) {
        return PartialJsonText.of(new PartialJson(List.of(diffs)), "doc");
    }
}
