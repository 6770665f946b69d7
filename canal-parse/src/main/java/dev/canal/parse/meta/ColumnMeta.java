package dev.canal.parse.meta;

import java.nio.charset.Charset;

/**
 * What the entry builder needs to know about one column: its name, the type text clients see as
 * {@code mysqlType} (e.g. {@code int(10) unsigned}), the lower-case type name ({@code int}, {@code varchar},
 * {@code json}, ...), key membership, signedness, the charset its text is stored in (null for binary types)
 * and, for BINARY(n), the declared byte length.
 */
public record ColumnMeta(String name, String mysqlType, String dataType, boolean key, boolean unsigned,
        Charset charset, int binaryLength) {

    public ColumnMeta {
        dataType = dataType.toLowerCase(java.util.Locale.ROOT);
    }
}
