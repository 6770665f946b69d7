package dev.canal.parse.convert;

import java.util.Arrays;

/**
 * MariaDB's INET4 and INET6 columns travel as raw address bytes; clients get the text MariaDB's {@code SELECT}
 * prints (docs/compatibility.md, deliberate differences): INET6 in lower-case hex without leading zeros, the
 * longest run of zero groups written {@code ::} (the first one of equal runs, a single zero group included), and
 * IPv4-mapped ({@code ::ffff:a.b.c.d}) and IPv4-compatible ({@code ::a.b.c.d}) addresses with their dotted quad.
 */
final class InetText {

    private static final int INET4_BYTES = 4;
    private static final int INET6_BYTES = 16;
    private static final int GROUPS = 8;
    /** The group before an embedded IPv4 address. */
    private static final int IPV4_GROUP = 6;
    private static final int MAPPED_MARK = 0xffff;

    private InetText() {
    }

    static String inet4(byte[] bytes) {
        byte[] b = padded(bytes, INET4_BYTES);
        return dottedQuad(b, 0);
    }

    static String inet6(byte[] bytes) {
        byte[] b = padded(bytes, INET6_BYTES);
        int[] groups = new int[GROUPS];
        for (int i = 0; i < GROUPS; i++) {
            groups[i] = (b[2 * i] & 0xff) << 8 | (b[2 * i + 1] & 0xff);
        }
        int gapStart = -1;
        int gapLength = 0;
        for (int i = 0; i < GROUPS; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < GROUPS && groups[i] == 0) {
                i++;
            }
            if (i - start > gapLength) {
                gapStart = start;
                gapLength = i - start;
            }
        }
        StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < GROUPS; i++) {
            if (i == gapStart) {
                text.append(i == 0 ? "::" : ":");
                i += gapLength - 1;
            } else if (i == IPV4_GROUP && gapStart == 0
                    && (gapLength == IPV4_GROUP || gapLength == IPV4_GROUP - 1 && groups[5] == MAPPED_MARK)) {
                return text.append(dottedQuad(b, 2 * IPV4_GROUP)).toString();
            } else {
                text.append(Integer.toHexString(groups[i]));
                if (i != GROUPS - 1) {
                    text.append(':');
                }
            }
        }
        return text.toString();
    }

    private static String dottedQuad(byte[] b, int from) {
        return (b[from] & 0xff) + "." + (b[from + 1] & 0xff) + "." + (b[from + 2] & 0xff) + "." + (b[from + 3] & 0xff);
    }

    /** The row image may drop trailing zero bytes of a fixed-size binary value. */
    static byte[] padded(byte[] bytes, int length) {
        if (bytes.length > length) {
            throw new IllegalArgumentException("not an address of " + length + " bytes: " + bytes.length + " bytes");
        }
        return bytes.length == length ? bytes : Arrays.copyOf(bytes, length);
    }
}
