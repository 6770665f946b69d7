package dev.canal.parse;

import java.util.List;

/**
 * The parser of one destination (Canal's CanalEventParser role): connects to the source as a replica,
 * finds where to start, decodes the binlog into entries and hands them to the sink, in binlog order.
 */
public interface EventParser {

    void start();

    void stop();

    boolean isStart();

    /**
     * Readies, before {@link #start()}, what does not depend on where the parser will start, so that the start is
     * quick (a standby server's warm instance, docs/high-availability.md); never reads the binlog. Nothing by default.
     */
    default void prepare() {
    }

    /**
     * Replaces the table white list while the parser runs, as a client's subscribe filter does; the regex takes
     * the form of {@code canal.instance.filter.regex}.
     *
     * @return whether this parser takes a client filter; false (the default) keeps the configured white list
     */
    default boolean replaceTableWhiteList(String regex) {
        return false;
    }

    /** Where the parser stands with each source it reads (one, or a group's members); empty when it cannot say. */
    default List<SourceStatus> sourceStatuses() {
        return List.of();
    }
}
