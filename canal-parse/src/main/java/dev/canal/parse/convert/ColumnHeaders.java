package dev.canal.parse.convert;

import com.google.protobuf.CodedOutputStream;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The parts of each column's {@code Column} encoding that are the same in every row of a table definition,
 * encoded once: the name and isKey fields (3, 4), and the mysqlType field (10). Rows then only add index,
 * sqlType, updated, isNull and value around them ({@link RowChangeWriter}). Also each column's
 * {@link RenderKind}, resolved once from its type name.
 */
final class ColumnHeaders {

    static final int NAME = 3;
    static final int IS_KEY = 4;
    static final int MYSQL_TYPE = 10;

    private final byte[][] nameAndKey;
    private final byte[][] mysqlType;
    private final RenderKind[] kinds;

    private ColumnHeaders(byte[][] nameAndKey, byte[][] mysqlType, RenderKind[] kinds) {
        this.nameAndKey = nameAndKey;
        this.mysqlType = mysqlType;
        this.kinds = kinds;
    }

    static ColumnHeaders of(TableMeta meta) {
        int count = meta.columnCount();
        byte[][] nameAndKey = new byte[count][];
        byte[][] mysqlType = new byte[count][];
        RenderKind[] kinds = new RenderKind[count];
        for (int i = 0; i < count; i++) {
            ColumnMeta column = meta.column(i);
            nameAndKey[i] = encode(column, true);
            mysqlType[i] = encode(column, false);
            kinds[i] = RenderKind.of(column.dataType());
        }
        return new ColumnHeaders(nameAndKey, mysqlType, kinds);
    }

    private static byte[] encode(ColumnMeta column, boolean nameAndKey) {
        int size = nameAndKey
                ? CodedOutputStream.computeBytesSize(NAME, column.nameUtf8()) + CodedOutputStream.computeBoolSize(IS_KEY, column.key())
                : CodedOutputStream.computeBytesSize(MYSQL_TYPE, column.mysqlTypeUtf8());
        byte[] bytes = new byte[size];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            if (nameAndKey) {
                out.writeBytes(NAME, column.nameUtf8());
                out.writeBool(IS_KEY, column.key());
            } else {
                out.writeBytes(MYSQL_TYPE, column.mysqlTypeUtf8());
            }
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes;
    }

    /** Fields 3 and 4 of column {@code index}, encoded. */
    byte[] nameAndKey(int index) {
        return nameAndKey[index];
    }

    /** Field 10 of column {@code index}, encoded. */
    byte[] mysqlType(int index) {
        return mysqlType[index];
    }

    /** How the values of column {@code index} are rendered. */
    RenderKind kind(int index) {
        return kinds[index];
    }
}
