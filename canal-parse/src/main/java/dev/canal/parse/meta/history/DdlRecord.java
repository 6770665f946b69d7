package dev.canal.parse.meta.history;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One applied DDL, as a row of Canal's {@code meta_history}.
 *
 * @param useSchema the session's default schema when the statement ran
 * @param sqlSchema the schema the statement names
 * @param sqlTable  the table the statement names ("" when none)
 */
public record DdlRecord(
        @JsonProperty("destination") String destination,
        @JsonUnwrapped HistoryPosition position,
        @JsonProperty("use_schema") String useSchema,
        @JsonProperty("sql_schema") String sqlSchema,
        @JsonProperty("sql_table") String sqlTable,
        @JsonProperty("sql_text") String sql,
        @JsonProperty("gmt_create") long createdMillis) {
}
