package dev.canal.parse.convert;

/**
 * MariaDB's UUID column as {@code SELECT} prints it (docs/compatibility.md, deliberate differences). The row
 * image holds MariaDB's stored form: a UUID of version 1 to 5 with the RFC variant is kept with its groups in
 * reverse order (node, clock sequence, time high, time mid, time low) so that time-based values sort by time;
 * any other UUID is kept as written. The stored form tells which: a reordered value has the variant bit at byte 6
 * and a version from 1 to 127 at byte 8.
 */
final class UuidText {

    private static final int BYTES = 16;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** {memory offset, stored offset, length} of each group (time low, time mid, time high, clock, node). */
    private static final int[][] GROUPS = {{0, 12, 4}, {4, 10, 2}, {6, 8, 2}, {8, 6, 2}, {10, 0, 6}};

    private UuidText() {
    }

    static String of(byte[] stored) {
        byte[] s = InetText.padded(stored, BYTES);
        byte[] uuid = reordered(s) ? inWrittenOrder(s) : s;
        StringBuilder text = new StringBuilder(36);
        for (int i = 0; i < BYTES; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                text.append('-');
            }
            text.append(HEX[(uuid[i] >> 4) & 0xf]).append(HEX[uuid[i] & 0xf]);
        }
        return text.toString();
    }

    private static boolean reordered(byte[] s) {
        return (s[6] & -s[8] & 0x80) != 0; // signed bytes, as MariaDB's test on char
    }

    private static byte[] inWrittenOrder(byte[] s) {
        byte[] uuid = new byte[BYTES];
        for (int[] g : GROUPS) {
            System.arraycopy(s, g[1], uuid, g[0], g[2]);
        }
        return uuid;
    }
}
