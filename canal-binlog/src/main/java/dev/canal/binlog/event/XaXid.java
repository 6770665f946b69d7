package dev.canal.binlog.event;

/** An XA transaction id: format id plus the global transaction id and branch qualifier bytes. */
public record XaXid(long formatId, byte[] gtrid, byte[] bqual) {

    /** MySQL's {@code X'..',X'..',formatId} form, as in {@code XA COMMIT} statements. */
    public String toSql() {
        return "X'" + hex(gtrid) + "',X'" + hex(bqual) + "'," + formatId;
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }
}
