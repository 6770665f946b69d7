package dev.canal.parse.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BinlogTableMetaTest {

    private static ColumnMeta col(String name, String mysqlType, String dataType) {
        return new ColumnMeta(name, mysqlType, dataType, false, false, null, 0);
    }

    private static TableMeta table(ColumnMeta... columns) {
        return new TableMeta("s", "t", List.of(columns));
    }

    @Test
    void displayWidthAndZerofillComeFromTheSourcesDefinition() {
        TableMeta binlog = table(col("flag", "tinyint", "tinyint"), col("z", "int unsigned", "int"),
                col("f", "float", "float"));
        TableMeta source = table(col("flag", "tinyint(1)", "tinyint"), col("z", "int(5) unsigned zerofill", "int"),
                col("f", "float(7,3)", "float"));

        assertThat(BinlogTableMeta.withSourceTypes(binlog, source).columns()).extracting(ColumnMeta::mysqlType)
                .containsExactly("tinyint(1)", "int(5) unsigned zerofill", "float(7,3)");
    }

    @Test
    void typesTheBinlogSpellsOutKeepTheirRebuiltText() {
        TableMeta binlog = table(col("v", "varchar(20)", "varchar"), col("i", "bigint unsigned", "bigint"));
        TableMeta history = table(col("v", "VARCHAR(20)", "varchar"), col("i", "BIGINT unsigned", "bigint"));

        assertThat(BinlogTableMeta.withSourceTypes(binlog, history)).isEqualTo(binlog);
    }

    @Test
    void mariadbTypesInABinaryCarrierTakeTheirNameFromTheSource() {
        TableMeta binlog = table(col("a", "binary(16)", "binary"), col("u", "binary(16)", "binary"));
        TableMeta source = table(col("a", "inet6", "inet6"), col("u", "uuid", "uuid"));

        assertThat(BinlogTableMeta.withSourceTypes(binlog, source).columns()).extracting(ColumnMeta::dataType)
                .containsExactly("inet6", "uuid");
    }

    @Test
    void aDefinitionOfOtherColumnsIsNotUsed() {
        TableMeta binlog = table(col("flag", "tinyint", "tinyint"), col("added", "int", "int"));

        assertThat(BinlogTableMeta.withSourceTypes(binlog, table(col("flag", "tinyint(1)", "tinyint"))))
                .isEqualTo(binlog);
        assertThat(BinlogTableMeta.withSourceTypes(binlog, table(col("flag", "tinyint(1)", "tinyint"),
                col("renamed", "int(11)", "int")))).isEqualTo(binlog);
        assertThat(BinlogTableMeta.withSourceTypes(binlog, null)).isEqualTo(binlog);
    }
}
