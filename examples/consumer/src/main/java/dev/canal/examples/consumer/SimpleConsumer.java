package dev.canal.examples.consumer;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.exception.CanalClientException;
import com.alibaba.otter.canal.protocol.CanalEntry.Column;
import com.alibaba.otter.canal.protocol.CanalEntry.Entry;
import com.alibaba.otter.canal.protocol.CanalEntry.EntryType;
import com.alibaba.otter.canal.protocol.CanalEntry.EventType;
import com.alibaba.otter.canal.protocol.CanalEntry.Header;
import com.alibaba.otter.canal.protocol.CanalEntry.RowChange;
import com.alibaba.otter.canal.protocol.CanalEntry.RowData;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prints every row change of one destination, the way a Canal client application processes them: get a batch
 * without acknowledging it, process it, then acknowledge it, or roll it back when processing failed so that the
 * server delivers it again.
 *
 * <p>The single connector of the official client does not reconnect by itself: once the server restarts or its
 * connection breaks, every call fails. So this consumer wraps its work in a loop that disconnects, waits (1 s,
 * doubling up to 30 s) and connects again; after a reconnection the server delivers again what was not
 * acknowledged, so a batch may be printed twice but none is skipped.
 *
 * <pre>
 * java -jar canal-consumer-example.jar [host:port] [destination] [filter] [rows]
 * </pre>
 *
 * Defaults: {@code 127.0.0.1:11111}, {@code example}, every table ({@code .*\..*}), and running until stopped;
 * with {@code rows} it exits after that many row changes. The client's user and password, when the server
 * has {@code canal.user} set, come from the environment variables CANAL_USERNAME and CANAL_PASSWORD.
 */
public final class SimpleConsumer {

    private static final int BATCH_SIZE = 1000;
    private static final long POLL_TIMEOUT_MILLIS = 1000;
    private static final long FIRST_RETRY_MILLIS = 1000;
    private static final long LONGEST_RETRY_MILLIS = 30_000;

    private final CanalConnector connector;
    private final String filter;
    private final long rowLimit;
    private long rows;

    private SimpleConsumer(CanalConnector connector, String filter, long rowLimit) {
        this.connector = connector;
        this.filter = filter;
        this.rowLimit = rowLimit;
    }

    public static void main(String[] args) throws InterruptedException {
        String[] address = argument(args, 0, "127.0.0.1:11111").split(":");
        String destination = argument(args, 1, "example");
        String filter = argument(args, 2, ".*\\..*");
        long rowLimit = Long.parseLong(argument(args, 3, "0"));

        CanalConnector connector = CanalConnectors.newSingleConnector(
                new InetSocketAddress(address[0], Integer.parseInt(address[1])), destination,
                environment("CANAL_USERNAME"), environment("CANAL_PASSWORD"));
        new SimpleConsumer(connector, filter, rowLimit).run();
    }

    /** Consumes until the row limit, connecting again whenever the connection to the server is lost. */
    private void run() throws InterruptedException {
        long retryMillis = FIRST_RETRY_MILLIS;
        while (!done()) {
            try {
                connector.connect();
                connector.subscribe(filter);
                connector.rollback(); // start from the last acknowledged position
                retryMillis = FIRST_RETRY_MILLIS;
                consume();
            } catch (CanalClientException e) {
                System.err.printf("connection to the server lost (%s); connecting again in %d s%n", reason(e),
                        retryMillis / 1000);
                Thread.sleep(retryMillis);
                retryMillis = Math.min(2 * retryMillis, LONGEST_RETRY_MILLIS);
            } finally {
                disconnectQuietly();
            }
        }
    }

    private void consume() {
        while (!done()) {
            Message message = connector.getWithoutAck(BATCH_SIZE, POLL_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            long batchId = message.getId();
            if (batchId == -1 || message.getEntries().isEmpty()) {
                continue;
            }
            try {
                rows += print(message.getEntries());
                connector.ack(batchId);
            } catch (RuntimeException e) {
                if (e instanceof CanalClientException) {
                    throw e; // the connection is gone: the batch comes again after the reconnection
                }
                connector.rollback(batchId);
                throw e;
            }
        }
    }

    private boolean done() {
        return rowLimit > 0 && rows >= rowLimit;
    }

    /** Closing a connection the server already closed may fail too; there is nothing left to close then. */
    private void disconnectQuietly() {
        try {
            connector.disconnect();
        } catch (CanalClientException e) {
            System.err.printf("closing the connection: %s%n", reason(e));
        }
    }

    /** The innermost cause's message: the official client wraps the socket's error. */
    private static String reason(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }

    /** Prints the row changes of the batch; returns how many rows changed. */
    private static long print(List<Entry> entries) {
        long rows = 0;
        for (Entry entry : entries) {
            if (entry.getEntryType() != EntryType.ROWDATA) {
                continue; // transaction begin and end
            }
            RowChange change;
            try {
                change = RowChange.parseFrom(entry.getStoreValue());
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("unreadable row change at " + position(entry.getHeader()), e);
            }
            Header header = entry.getHeader();
            if (change.getIsDdl()) {
                System.out.printf("DDL %s.%s at %s: %s%n", header.getSchemaName(), header.getTableName(),
                        position(header), change.getSql());
                continue;
            }
            for (RowData row : change.getRowDatasList()) {
                System.out.printf("%s %s.%s at %s%n", change.getEventType(), header.getSchemaName(),
                        header.getTableName(), position(header));
                // a deleted row has only its before image; inserted and updated rows show their after image
                printColumns(change.getEventType() == EventType.DELETE ? row.getBeforeColumnsList()
                        : row.getAfterColumnsList());
                rows++;
            }
        }
        System.out.flush();
        return rows;
    }

    private static void printColumns(List<Column> columns) {
        for (Column column : columns) {
            System.out.printf("  %s = %s%s%n", column.getName(), column.getIsNull() ? "NULL" : column.getValue(),
                    column.getUpdated() ? " (changed)" : "");
        }
    }

    private static String position(Header header) {
        return header.getLogfileName() + ":" + header.getLogfileOffset();
    }

    private static String argument(String[] args, int index, String fallback) {
        return args.length > index && !args[index].isEmpty() ? args[index] : fallback;
    }

    private static String environment(String name) {
        String value = System.getenv(name);
        return value == null ? "" : value;
    }
}
