package dev.canal.binlog.event;

/** INTVAR: {@code LAST_INSERT_ID} (kind 1) or {@code INSERT_ID} (kind 2) for the next statement. */
public record IntVarEvent(EventHeader header, int kind, long value) implements BinlogEvent {

    public static final int LAST_INSERT_ID = 1;
    public static final int INSERT_ID = 2;

    public String kindName() {
        return switch (kind) {
            case LAST_INSERT_ID -> "LAST_INSERT_ID";
            case INSERT_ID -> "INSERT_ID";
            default -> "INTVAR_" + kind;
        };
    }
}
