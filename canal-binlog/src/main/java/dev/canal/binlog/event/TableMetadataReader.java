package dev.canal.binlog.event;

import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * TABLE_MAP optional metadata: fields of (type byte, length-encoded length, value). Each field counts only
 * the columns of its kind (numeric columns for SIGNEDNESS, character columns for the charsets, ...); this
 * reader maps them back to table column indexes. Unknown field types are skipped by their length.
 */
final class TableMetadataReader {

    private static final int SIGNEDNESS = 1;
    private static final int DEFAULT_CHARSET = 2;
    private static final int COLUMN_CHARSET = 3;
    private static final int COLUMN_NAME = 4;
    private static final int SET_STR_VALUE = 5;
    private static final int ENUM_STR_VALUE = 6;
    private static final int GEOMETRY_TYPE = 7;
    private static final int SIMPLE_PRIMARY_KEY = 8;
    private static final int PRIMARY_KEY_WITH_PREFIX = 9;
    private static final int ENUM_AND_SET_DEFAULT_CHARSET = 10;
    private static final int ENUM_AND_SET_COLUMN_CHARSET = 11;
    private static final int COLUMN_VISIBILITY = 12;
    private static final int VECTOR_DIMENSIONALITY = 13;

    private TableMetadataReader() {
    }

    static TableMetadata read(LittleEndianCursor c, int[] types, int[] meta) {
        int n = types.length;
        int[] real = new int[n];
        for (int i = 0; i < n; i++) {
            real[i] = ColumnType.realType(types[i], meta[i]);
        }
        BitSet unsigned = null;
        int[] charsets = null;
        List<String> names = null;
        List<List<String>> enums = null;
        List<List<String>> sets = null;
        int[] geometry = null;
        int[] pk = new int[0];
        int[] pkPrefix = new int[0];
        BitSet visible = null;
        int[] vector = null;
        while (c.hasRemaining()) {
            int type = c.uint8();
            int length = c.checkedLength(c.lengthEncodedInt());
            LittleEndianCursor f = new LittleEndianCursor(c.array(), c.position(), length);
            c.skip(length);
            switch (type) {
                case SIGNEDNESS -> unsigned = bitsPerColumn(f, real, ColumnType::isNumeric);
                case DEFAULT_CHARSET -> charsets = defaultCharsets(f, charsets, real, ColumnType::isCharacter);
                case COLUMN_CHARSET -> charsets = columnCharsets(f, charsets, real, ColumnType::isCharacter);
                case ENUM_AND_SET_DEFAULT_CHARSET ->
                        charsets = defaultCharsets(f, charsets, real, ColumnType::isEnumOrSet);
                case ENUM_AND_SET_COLUMN_CHARSET ->
                        charsets = columnCharsets(f, charsets, real, ColumnType::isEnumOrSet);
                case COLUMN_NAME -> {
                    List<String> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(lengthPrefixed(f));
                    }
                    names = Collections.unmodifiableList(list);
                }
                case SET_STR_VALUE -> sets = memberStrings(f, real, ColumnType.SET);
                case ENUM_STR_VALUE -> enums = memberStrings(f, real, ColumnType.ENUM);
                case GEOMETRY_TYPE -> geometry = intPerColumn(f, real, t -> t == ColumnType.GEOMETRY);
                case SIMPLE_PRIMARY_KEY -> {
                    List<Integer> cols = new ArrayList<>();
                    while (f.hasRemaining()) {
                        cols.add(columnIndex(f, n));
                    }
                    pk = cols.stream().mapToInt(Integer::intValue).toArray();
                    pkPrefix = new int[pk.length];
                }
                case PRIMARY_KEY_WITH_PREFIX -> {
                    List<int[]> parts = new ArrayList<>();
                    while (f.hasRemaining()) {
                        parts.add(new int[] {columnIndex(f, n), (int) f.lengthEncodedInt()});
                    }
                    pk = parts.stream().mapToInt(p -> p[0]).toArray();
                    pkPrefix = parts.stream().mapToInt(p -> p[1]).toArray();
                }
                case COLUMN_VISIBILITY -> visible = bitsPerColumn(f, real, t -> true);
                case VECTOR_DIMENSIONALITY -> vector = intPerColumn(f, real, t -> t == ColumnType.VECTOR);
                default -> {
                    // a kind from a newer server: skipped by its length
                }
            }
        }
        return new TableMetadata(unsigned, charsets, names, enums, sets, geometry, pk, pkPrefix, visible, vector);
    }

    /** One bit per column of a kind, most significant bit first. */
    private static BitSet bitsPerColumn(LittleEndianCursor f, int[] real, IntPredicate kind) {
        BitSet bits = new BitSet(real.length);
        int k = 0;
        int current = 0;
        for (int i = 0; i < real.length; i++) {
            if (!kind.test(real[i])) {
                continue;
            }
            if (k % 8 == 0) {
                current = f.uint8();
            }
            if ((current & (0x80 >> (k % 8))) != 0) {
                bits.set(i);
            }
            k++;
        }
        return bits;
    }

    /** Default collation, then (index among columns of the kind, collation) pairs for the exceptions. */
    private static int[] defaultCharsets(LittleEndianCursor f, int[] charsets, int[] real,
            IntPredicate kind) {
        int[] out = charsets != null ? charsets : filled(real.length);
        int defaultCollation = (int) f.lengthEncodedInt();
        int[] columnOfKind = columnsOfKind(real, kind);
        for (int col : columnOfKind) {
            out[col] = defaultCollation;
        }
        while (f.hasRemaining()) {
            long index = f.lengthEncodedInt();
            int collation = (int) f.lengthEncodedInt();
            if (index >= 0 && index < columnOfKind.length) {
                out[columnOfKind[(int) index]] = collation;
            }
        }
        return out;
    }

    /** One collation per column of the kind. */
    private static int[] columnCharsets(LittleEndianCursor f, int[] charsets, int[] real,
            IntPredicate kind) {
        int[] out = charsets != null ? charsets : filled(real.length);
        for (int col : columnsOfKind(real, kind)) {
            out[col] = (int) f.lengthEncodedInt();
        }
        return out;
    }

    private static List<List<String>> memberStrings(LittleEndianCursor f, int[] real, int kind) {
        List<List<String>> out = new ArrayList<>(Collections.nCopies(real.length, (List<String>) null));
        for (int i = 0; i < real.length; i++) {
            if (real[i] != kind) {
                continue;
            }
            int count = f.checkedLength(f.lengthEncodedInt());
            List<String> members = new ArrayList<>(count);
            for (int k = 0; k < count; k++) {
                members.add(lengthPrefixed(f));
            }
            out.set(i, Collections.unmodifiableList(members));
        }
        return Collections.unmodifiableList(out);
    }

    private static int[] intPerColumn(LittleEndianCursor f, int[] real, IntPredicate kind) {
        int[] out = filled(real.length);
        for (int col : columnsOfKind(real, kind)) {
            out[col] = (int) f.lengthEncodedInt();
        }
        return out;
    }

    private static int[] columnsOfKind(int[] real, IntPredicate kind) {
        int[] cols = new int[real.length];
        int k = 0;
        for (int i = 0; i < real.length; i++) {
            if (kind.test(real[i])) {
                cols[k++] = i;
            }
        }
        return Arrays.copyOf(cols, k);
    }

    private static int columnIndex(LittleEndianCursor f, int n) {
        long index = f.lengthEncodedInt();
        if (index < 0 || index >= n) {
            throw new MalformedDataException("primary key column " + index + " of a "
                    + n + "-column table");
        }
        return (int) index;
    }

    private static String lengthPrefixed(LittleEndianCursor f) {
        return f.string(f.checkedLength(f.lengthEncodedInt()), StandardCharsets.UTF_8);
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }
}
