package dev.canal.parse.convert;

import com.google.protobuf.CodedOutputStream;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The parts of each column's {@code Column} encoding that are the same in every row of a table definition,
 * encoded once: the head (fields 1-4: index, sqlType, name, isKey) and the mysqlType field (10). Rows then only
 * add updated, isNull and value between them ({@link RowChangeWriter}). Also each column's {@link RenderKind},
 * resolved once from its type name.
 *
 * <p>A column's sqlType is almost always the same in every row; where it is not (an unsigned value widened, a
 * JSON NULL), the head is encoded again for the new sqlType and kept in its place. Row workers share an instance:
 * each head is an immutable {@link Head}, so a worker sees either the old or the new one, both correct for
 * their sqlType.
 */
final class ColumnHeaders {

    static final int INDEX = 1;
    static final int SQL_TYPE = 2;
    static final int NAME = 3;
    static final int IS_KEY = 4;
    static final int MYSQL_TYPE = 10;

    private final TableMeta meta;
    private final Head[] heads;
    private final byte[][] mysqlType;
    private final RenderKind[] kinds;

    /** Fields 1-4 of a column, encoded for one sqlType. */
    private record Head(int sqlType, byte[] bytes) {
    }

    private ColumnHeaders(TableMeta meta) {
        this.meta = meta;
        int count = meta.columnCount();
        heads = new Head[count];
        mysqlType = new byte[count][];
        kinds = new RenderKind[count];
        for (int i = 0; i < count; i++) {
            ColumnMeta column = meta.column(i);
            kinds[i] = RenderKind.of(column.dataType());
            heads[i] = encodeHead(i, kinds[i].nullSqlType());
            mysqlType[i] = mysqlTypeField(column);
        }
    }

    static ColumnHeaders of(TableMeta meta) {
        return new ColumnHeaders(meta);
    }

    private Head encodeHead(int index, int sqlType) {
        ColumnMeta column = meta.column(index);
        int size = CodedOutputStream.computeUInt32Size(INDEX, index) + CodedOutputStream.computeInt32Size(SQL_TYPE, sqlType)
                + CodedOutputStream.computeBytesSize(NAME, column.nameUtf8())
                + CodedOutputStream.computeBoolSize(IS_KEY, column.key());
        byte[] bytes = new byte[size];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeUInt32(INDEX, index);
            out.writeInt32(SQL_TYPE, sqlType);
            out.writeBytes(NAME, column.nameUtf8());
            out.writeBool(IS_KEY, column.key());
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Head(sqlType, bytes);
    }

    private static byte[] mysqlTypeField(ColumnMeta column) {
        byte[] bytes = new byte[CodedOutputStream.computeBytesSize(MYSQL_TYPE, column.mysqlTypeUtf8())];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeBytes(MYSQL_TYPE, column.mysqlTypeUtf8());
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes;
    }

    /** Fields 1-4 (index, sqlType, name, isKey) of column {@code index} with this sqlType, encoded. */
    byte[] head(int index, int sqlType) {
        Head head = heads[index];
        if (head.sqlType() != sqlType) {
            head = encodeHead(index, sqlType);
            heads[index] = head;
        }
        return head.bytes();
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
