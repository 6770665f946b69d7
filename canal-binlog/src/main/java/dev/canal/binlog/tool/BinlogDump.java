package dev.canal.binlog.tool;

import dev.canal.binlog.file.BinlogFileException;
import dev.canal.binlog.file.BinlogFileReader;
import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.event.AnnotateRowsEvent;
import dev.canal.binlog.event.BinlogCheckpointEvent;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.FormatDescriptionEvent;
import dev.canal.binlog.event.GtidEvent;
import dev.canal.binlog.event.HeartbeatEvent;
import dev.canal.binlog.event.IncidentEvent;
import dev.canal.binlog.event.IntVarEvent;
import dev.canal.binlog.event.MariaGtidEvent;
import dev.canal.binlog.event.MariaGtidListEvent;
import dev.canal.binlog.event.PreviousGtidsEvent;
import dev.canal.binlog.event.QueryEvent;
import dev.canal.binlog.event.RandEvent;
import dev.canal.binlog.event.RotateEvent;
import dev.canal.binlog.event.RowChange;
import dev.canal.binlog.event.RowsDecoder;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.binlog.event.RowsQueryEvent;
import dev.canal.binlog.event.StopEvent;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.binlog.event.TransactionPayloadEvent;
import dev.canal.binlog.event.UnknownEvent;
import dev.canal.binlog.event.UserVarEvent;
import dev.canal.binlog.event.XaPrepareEvent;
import dev.canal.binlog.event.XidEvent;
import dev.canal.binlog.io.MalformedDataException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code binlog-dump [--format text|json] FILE...}: decodes local binlog or relay-log files and prints every
 * event on one line (type, file:position, timestamp, then the event's fields; rows events with their table and
 * decoded values). Events inside a TRANSACTION_PAYLOAD follow it, positioned {@code offset#n}. Exits 1 naming the
 * file and offset at the first event it cannot decode, 2 on bad usage.
 */
public final class BinlogDump {

    /** Output format. */
    public enum Format { TEXT, JSON }

    private static final String USAGE = "usage: binlog-dump.sh [--format text|json] FILE...";

    private final Format format;
    private final Writer out;
    private final Map<Long, TableMapEvent> tables = new HashMap<>();

    public BinlogDump(Format format, Writer out) {
        this.format = format;
        this.out = out;
    }

    public static void main(String[] args) {
        PrintStream err = System.err;
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        int status = run(args, out, err);
        System.exit(status);
    }

    /** Runs the tool; returns the exit status (0 all decoded, 1 a file failed to decode, 2 bad usage or I/O). */
    public static int run(String[] args, Writer out, PrintStream err) {
        Format format = Format.TEXT;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--format") && i + 1 < args.length) {
                String f = args[++i];
                if (!f.equals("text") && !f.equals("json")) {
                    err.println("binlog-dump: unknown format '" + f + "'\n" + USAGE);
                    return 2;
                }
                format = f.equals("json") ? Format.JSON : Format.TEXT;
            } else if (a.startsWith("--format=")) {
                String f = a.substring("--format=".length());
                if (!f.equals("text") && !f.equals("json")) {
                    err.println("binlog-dump: unknown format '" + f + "'\n" + USAGE);
                    return 2;
                }
                format = f.equals("json") ? Format.JSON : Format.TEXT;
            } else if (a.equals("-h") || a.equals("--help")) {
                err.println(USAGE);
                return 0;
            } else if (a.startsWith("--")) {
                err.println("binlog-dump: unknown option " + a + "\n" + USAGE);
                return 2;
            } else {
                files.add(Path.of(a));
            }
        }
        if (files.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        BinlogDump dump = new BinlogDump(format, out);
        try {
            for (Path file : files) {
                try {
                    dump.dump(file);
                } catch (NoSuchFileException e) {
                    err.println("binlog-dump: cannot read " + file + ": no such file");
                    return 2;
                } catch (AccessDeniedException e) {
                    err.println("binlog-dump: cannot read " + file + ": permission denied");
                    return 2;
                } catch (IOException | UncheckedIOException e) {
                    err.println("binlog-dump: cannot read " + file + ": " + e);
                    return 2;
                }
            }
            return 0;
        } catch (BinlogFileException e) {
            flushQuietly(out);
            err.println("binlog-dump: " + e.getMessage());
            return 1;
        } finally {
            flushQuietly(out);
        }
    }

    /**
     * Decodes one file to the end, printing each event.
     *
     * @throws BinlogFileException at the first event that cannot be decoded (rows included)
     */
    public void dump(Path file) throws IOException {
        tables.clear();
        try (BinlogFileReader reader = BinlogFileReader.open(file)) {
            String name = file.getFileName().toString();
            BinlogEvent event;
            while ((event = reader.next()) != null) {
                try {
                    print(event, name, Long.toString(reader.position()));
                    if (event instanceof TransactionPayloadEvent payload) {
                        int n = 0;
                        for (BinlogEvent inner : payload.events()) {
                            print(inner, name, reader.position() + "#" + ++n);
                        }
                    }
                } catch (MalformedDataException e) {
                    throw new BinlogFileException(file.toString(), reader.position(),
                            event.header().typeName() + " event: " + e.getMessage(), e);
                }
            }
        }
    }

    private void print(BinlogEvent event, String file, String position) throws IOException {
        DumpLine line = new DumpLine(format == Format.JSON)
                .lead(event.header().typeName(), file, position, event.header().timestamp());
        line.num("serverId", event.header().serverId()).num("nextPosition", event.header().nextPosition());
        describe(event, line);
        out.write(line.toString());
        out.write('\n');
    }

    // Java 17 has no pattern switch: one instanceof per sealed case, in the order of BinlogEvent's permits.
    private void describe(BinlogEvent event, DumpLine line) {
        if (event instanceof FormatDescriptionEvent e) {
            line.num("binlogVersion", e.binlogVersion()).str("serverVersion", e.serverVersion())
                    .str("checksum", switch (e.checksumAlgorithm()) {
                        case FormatDescriptionEvent.CHECKSUM_CRC32 -> "CRC32";
                        case FormatDescriptionEvent.CHECKSUM_NONE -> "NONE";
                        default -> "UNDEFINED";
                    });
        } else if (event instanceof RotateEvent e) {
            line.str("nextFile", e.nextFile()).num("nextFilePosition", e.position());
        } else if (event instanceof QueryEvent e) {
            line.num("threadId", e.threadId()).num("execTime", e.execTime()).num("errorCode", e.errorCode())
                    .str("schema", e.schema()).str("sql", e.sql());
        } else if (event instanceof XidEvent e) {
            line.raw("xid", Long.toUnsignedString(e.xid()));
        } else if (event instanceof IntVarEvent e) {
            line.str("variable", e.kindName()).raw("value", Long.toUnsignedString(e.value()));
        } else if (event instanceof RandEvent e) {
            line.raw("seed1", Long.toUnsignedString(e.seed1())).raw("seed2", Long.toUnsignedString(e.seed2()));
        } else if (event instanceof UserVarEvent e) {
            line.str("name", e.name()).raw("value", userVar(line, e));
        } else if (event instanceof GtidEvent e) {
            line.str("gtid", e.gtid()).num("lastCommitted", e.lastCommitted())
                    .num("sequenceNumber", e.sequenceNumber())
                    .num("immediateCommitTimestamp", e.immediateCommitTimestamp())
                    .num("transactionLength", e.transactionLength());
        } else if (event instanceof PreviousGtidsEvent e) {
            line.str("gtidSet", e.gtidSet());
        } else if (event instanceof TableMapEvent e) {
            tables.put(e.tableId(), e);
            StringBuilder types = new StringBuilder();
            for (int i = 0; i < e.columnCount(); i++) {
                types.append(i == 0 ? "" : ",").append(ColumnType.name(e.realType(i)));
            }
            line.num("tableId", e.tableId()).str("table", e.qualifiedName()).str("columns", types.toString());
        } else if (event instanceof RowsEvent e) {
            rows(e, line);
        } else if (event instanceof RowsQueryEvent e) {
            line.str("query", e.query());
        } else if (event instanceof HeartbeatEvent e) {
            line.str("logFile", e.logFile()).num("logPosition", e.position());
        } else if (event instanceof XaPrepareEvent e) {
            line.str("xid", e.xid().toSql()).bool("onePhase", e.onePhase());
        } else if (event instanceof TransactionPayloadEvent e) {
            line.num("compression", e.compressionType()).num("payloadSize", e.payloadSize())
                    .num("uncompressedSize", e.uncompressedSize()).num("events", e.events().size());
        } else if (event instanceof StopEvent) {
            line.str("note", "server stopped");
        } else if (event instanceof IncidentEvent e) {
            line.num("incident", e.incident()).str("message", e.message());
        } else if (event instanceof AnnotateRowsEvent e) {
            line.str("query", e.query());
        } else if (event instanceof BinlogCheckpointEvent e) {
            line.str("file", e.file());
        } else if (event instanceof MariaGtidEvent e) {
            line.str("gtid", e.gtid()).num("flags", e.flags());
            if (e.commitId() >= 0) {
                line.num("commitId", e.commitId());
            }
            if (e.xid() != null) {
                line.str("xid", e.xid().toSql());
            }
        } else if (event instanceof MariaGtidListEvent e) {
            line.str("gtids", e.gtids().toString());
        } else if (event instanceof UnknownEvent e) {
            line.num("typeCode", e.header().type()).num("bodyLength", e.bodyLength());
        }
    }

    private void rows(RowsEvent e, DumpLine line) {
        TableMapEvent table = tables.get(e.tableId());
        line.num("tableId", e.tableId()).num("flags", e.flags());
        if (table == null) {
            if (e.rowDataLength() > 0) {
                throw new MalformedDataException("no TABLE_MAP for table id " + e.tableId() + " before its rows");
            }
            return;
        }
        if (e.version() == 0) {
            line.str("table", table.qualifiedName()).str("rows", "not decoded: pre-GA row format of MySQL 5.1 betas");
            return;
        }
        List<RowChange> rows = RowsDecoder.decode(e, table);
        line.str("table", table.qualifiedName()).num("rowCount", rows.size())
                .raw("rows", DumpValues.rows(line, rows, table, e.columnsBefore(), e.columnsAfter()));
    }

    private static String userVar(DumpLine line, UserVarEvent e) {
        Object v = e.value();
        if (v == null) {
            return line.json() ? "null" : "NULL";
        }
        if (v instanceof byte[] bytes) {
            return line.quote(new String(bytes, StandardCharsets.UTF_8));
        }
        if (v instanceof Long l) {
            return e.unsigned() ? Long.toUnsignedString(l) : Long.toString(l);
        }
        if (v instanceof java.math.BigDecimal d) {
            return d.toPlainString();
        }
        return v.toString();
    }

    private static void flushQuietly(Writer out) {
        try {
            out.flush();
        } catch (IOException e) {
            // nothing left to report to: stdout is gone
        }
    }
}
