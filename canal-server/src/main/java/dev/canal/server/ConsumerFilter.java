package dev.canal.server;

import dev.canal.protocol.CanalEntry;
import dev.canal.sink.filter.RegexTableFilter;
import dev.canal.store.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A named consumer's own table filter (docs/consumers.md), applied when its batch is handed out instead of in the
 * destination's parser: entries of tables the filter does not match are left out of the message, while the batch
 * still covers them (its ack moves past them). Transaction begin and end entries, and entries naming no table,
 * always pass. The filter has Canal's subscribe-filter syntax. A kept filter that does not compile (written by an
 * older version, or edited by hand) lets every table through and is reported once.
 */
final class ConsumerFilter {

    private static final Logger log = LoggerFactory.getLogger(ConsumerFilter.class);
    /** Distinct filters kept compiled; past that the cache starts over, so clients cannot make it grow forever. */
    static final int MAX_COMPILED = 1024;
    private static final RegexTableFilter EVERY_TABLE = RegexTableFilter.whiteList("");
    private static final Map<String, RegexTableFilter> COMPILED = new ConcurrentHashMap<>();

    private ConsumerFilter() {
    }

    /** The events the filter lets through, in order; all of them for a blank filter. */
    static List<Event> apply(String filter, List<Event> events) {
        if (filter == null || filter.isBlank()) {
            return events;
        }
        if (COMPILED.size() >= MAX_COMPILED && !COMPILED.containsKey(filter)) {
            COMPILED.clear();
        }
        RegexTableFilter tables = COMPILED.computeIfAbsent(filter, ConsumerFilter::compile);
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

    private static RegexTableFilter compile(String filter) {
        try {
            return RegexTableFilter.whiteList(filter);
        } catch (PatternSyntaxException e) {
            log.error("a consumer's kept filter is not a valid regular expression ({} near index {}); it is ignored "
                    + "and the consumer receives every table of its destination until it subscribes again",
                    e.getDescription(), e.getIndex());
            return EVERY_TABLE;
        }
    }
}
