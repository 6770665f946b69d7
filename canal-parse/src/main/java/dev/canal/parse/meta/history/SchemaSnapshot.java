package dev.canal.parse.meta.history;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole schema model at a binlog position, as a row of Canal's {@code meta_snapshot}
 *: {@code data} maps each schema to its concatenated {@code CREATE ...;} statements.
 */
public record SchemaSnapshot(
        @JsonProperty("destination") String destination,
        @JsonUnwrapped HistoryPosition position,
        @JsonProperty("data") Map<String, String> data,
        @JsonProperty("gmt_create") long createdMillis) {

    public SchemaSnapshot {
        data = new TreeMap<>(data);
    }
}
