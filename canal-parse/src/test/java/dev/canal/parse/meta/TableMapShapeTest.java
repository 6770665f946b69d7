package dev.canal.parse.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.binlog.event.TableMetadata;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableMapShapeTest {

    /** id INT, name VARCHAR, doc TEXT/JSON: the TABLE_MAP of MINIMAL metadata, no names. */
    private static final TableMapEvent MAP = new TableMapEvent(null, 1, 0, "s", "t", 3,
            new int[] {ColumnType.LONG, ColumnType.VARCHAR, ColumnType.BLOB}, new int[] {0, 80, 2}, new BitSet(),
            TableMetadata.NONE);

    private static ColumnMeta col(String name, String dataType) {
        return new ColumnMeta(name, dataType, dataType, false, false, null, 0);
    }

    @Test
    void aDefinitionOfTheSameColumnTypesFitsWhateverItsNames() {
        assertThat(TableMapShape.fits(new TableMeta("s", "t", List.of(col("id", "int"), col("renamed", "varchar"),
                col("doc", "json"))), MAP)).isTrue();
        assertThat(TableMapShape.fits(new TableMeta("s", "t", List.of(col("id", "int"), col("b", "varbinary"),
                col("t", "mediumtext"))), MAP)).isTrue();
    }

    @Test
    void aDefinitionWithAColumnMoreOrOfAnotherTypeDoesNot() {
        assertThat(TableMapShape.fits(new TableMeta("s", "t", List.of(col("id", "int"), col("name", "varchar"),
                col("doc", "json"), col("added", "int"))), MAP)).isFalse();
        assertThat(TableMapShape.fits(new TableMeta("s", "t", List.of(col("id", "bigint"), col("name", "varchar"),
                col("doc", "json"))), MAP)).isFalse();
        assertThat(TableMapShape.fits(new TableMeta("s", "t", List.of(col("name", "varchar"), col("id", "int"),
                col("doc", "json"))), MAP)).isFalse();
    }
}
