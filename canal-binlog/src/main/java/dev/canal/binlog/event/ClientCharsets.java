package dev.canal.binlog.event;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The Java charset of a client collation id (QUERY's {@code character_set_client}), for decoding statement
 * text. Covers the charsets a client can use; anything else (and utf8mb3/utf8mb4 in all their collations) is
 * read as UTF-8. MySQL's latin1 is Windows-1252.
 */
final class ClientCharsets {

    private ClientCharsets() {
    }

    static Charset forCollation(Integer id) {
        if (id == null) {
            return StandardCharsets.UTF_8;
        }
        String name = switch (id) {
            case 5, 8, 15, 31, 47, 48, 49, 94 -> "windows-1252";
            case 28, 87 -> "GBK";
            case 24, 86 -> "GB2312";
            case 248, 249, 250 -> "GB18030";
            case 1, 84 -> "Big5";
            case 13, 88 -> "Shift_JIS";
            case 95, 96 -> "windows-31j";
            case 12, 91 -> "EUC-JP";
            case 19, 85 -> "EUC-KR";
            case 14, 23, 50, 51, 52 -> "windows-1251";
            case 11, 65 -> "US-ASCII";
            case 63 -> "ISO-8859-1";
            default -> null;
        };
        if (name == null || !Charset.isSupported(name)) {
            return StandardCharsets.UTF_8;
        }
        return Charset.forName(name);
    }
}
