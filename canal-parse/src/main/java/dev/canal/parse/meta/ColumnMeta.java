package dev.canal.parse.meta;

import com.google.protobuf.ByteString;
import java.nio.charset.Charset;

/**
 * What the entry builder needs to know about one column: its name, the type text clients see as
 * {@code mysqlType} (e.g. {@code int(10) unsigned}), the lower-case type name ({@code int}, {@code varchar},
 * {@code json}, ...), key membership, signedness, the charset its text is stored in (null for binary types)
 * and, for BINARY(n), the declared byte length.
 */
public record ColumnMeta(String name, String mysqlType, String dataType, boolean key, boolean unsigned,
        Charset charset, int binaryLength, ByteString nameUtf8, ByteString mysqlTypeUtf8) {

    public ColumnMeta {
        dataType = dataType.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The name and type text are also kept UTF-8 encoded: every column of every row carries them, and a
     * protobuf string field set from bytes is written as is instead of being measured and encoded again.
     */
    public ColumnMeta(String name, String mysqlType, String dataType, boolean key, boolean unsigned, Charset charset,
            int binaryLength) {
        this(name, mysqlType, dataType, key, unsigned, charset, binaryLength, ByteString.copyFromUtf8(name),
                ByteString.copyFromUtf8(mysqlType));
    }
}
