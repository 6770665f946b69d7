package dev.canal.parse;

/**
 * The parser of one destination (Canal's CanalEventParser role): connects to the source as a replica,
 * finds where to start, decodes the binlog into entries and hands them to the sink, in binlog order.
 */
public interface EventParser {

    void start();

    void stop();

    boolean isStart();
}
