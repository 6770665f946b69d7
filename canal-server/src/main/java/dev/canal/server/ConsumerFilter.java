package dev.canal.server;

import dev.canal.protocol.CanalEntry;
import dev.canal.sink.filter.RegexTableFilter;
import dev.canal.store.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A named consumer's own table filter (docs/consumers.md), applied when its batch is handed out instead of in the
 * destination's parser: entries of tables the filter does not match are left out of the message, while the batch
 * still covers them (its ack moves past them). Transaction begin and end entries, and entries naming no table,
 * always pass. The filter has Canal's subscribe-filter syntax.
 */
final class ConsumerFilter {

    private static final Map<String, RegexTableFilter> COMPILED = new ConcurrentHashMap<>();

    private ConsumerFilter() {
    }

    /** The events the filter lets through, in order; all of them for a blank filter. */
    static List<Event> apply(String filter, List<Event> events) {
        if (filter == null || filter.isBlank()) {
            return events;
        }
        RegexTableFilter tables = COMPILED.computeIfAbsent(filter, RegexTableFilter::whiteList);
        List<Event> passed = new ArrayList<>(events.size());
        for (Event event : events) {
            if (event.entryType() != CanalEntry.EntryType.ROWDATA) {
                passed.add(event);
                continue;
            }
            CanalEntry.Header header = event.parsedEntry().getHeader();
            if (header.getTableName().isEmpty()
                    || tables.matches(header.getSchemaName() + "." + header.getTableName())) {
                passed.add(event);
            }
        }
        return passed;
    }
}
