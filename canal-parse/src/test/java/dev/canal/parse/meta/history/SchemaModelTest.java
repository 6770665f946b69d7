package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.sql.parser.ParserException;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaModelTest {

    private static final String CREATE = "CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(16)) ENGINE=InnoDB "
            + "DEFAULT CHARSET=utf8mb4 COMMENT='wide'";

    @Test
    void tablesShareTheirColumnsNamesAndTypeTexts() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", CREATE);
        model.replace("shop", "u", CREATE.replace("TABLE t", "TABLE u"));

        ColumnMeta t = model.table("shop", "t").orElseThrow().column(1);
        ColumnMeta u = model.table("shop", "u").orElseThrow().column(1);
        assertThat(u.name()).isSameAs(t.name());
        assertThat(u.nameUtf8()).isSameAs(t.nameUtf8());
        assertThat(u.mysqlType()).isSameAs(t.mysqlType());
        assertThat(u.mysqlTypeUtf8()).isSameAs(t.mysqlTypeUtf8());
    }

    @Test
    void aTableWrittenBackFromItsDefinitionReadsAsTheSameColumns() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (a INT(10) UNSIGNED ZEROFILL, b DECIMAL(65,30), c VARCHAR(8) CHARACTER SET "
                + "latin1, d ENUM('x','y''z'), e BINARY(16), `odd``name` TEXT, f JSON, PRIMARY KEY (b, a)) "
                + "DEFAULT CHARSET=gbk");
        TableMeta before = model.table("shop", "t").orElseThrow();

        SchemaModel again = SchemaModel.restore(model.dump());

        assertThat(again.table("shop", "t").orElseThrow()).isEqualTo(before);
        assertThat(before.column(3).charset()).hasToString("GBK");
        assertThat(before.column(2).charset()).hasToString("windows-1252");
    }

    @Test
    void aStatementReplacesOnlyTheTablesItNames() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (id INT PRIMARY KEY)");
        model.apply("shop", "CREATE TABLE u (id INT PRIMARY KEY)");
        TableMeta u = model.table("shop", "u").orElseThrow();

        model.apply("shop", "ALTER TABLE t ADD COLUMN a INT");

        assertThat(columns(model, "t")).containsExactly("id INT", "a INT");
        assertThat(model.table("shop", "u").orElseThrow()).isSameAs(u);
    }

    @Test
    void indexStatementsOnATableWrittenBackFromItsDefinitionChangeNoColumn() {
        SchemaModel model = appliedInTurn(
                "CREATE TABLE t (id INT, a INT, b VARCHAR(8), PRIMARY KEY (id), KEY ia (a), UNIQUE KEY ub (b))",
                "ALTER TABLE t RENAME INDEX ia TO ia2, ALTER INDEX ub INVISIBLE",
                "DROP INDEX ia2 ON t",
                "ALTER TABLE t DROP INDEX ub, ADD KEY ab (a, b)",
                "ALTER TABLE t DROP FOREIGN KEY fk_gone");

        assertThat(columns(model, "t")).containsExactly("id INT", "a INT", "b VARCHAR(8)");
        assertThat(model.table("shop", "t").orElseThrow().columns()).extracting(ColumnMeta::key)
                .containsExactly(true, false, false);
    }

    @Test
    void aSnapshotStatementThatCannotBeReadLeavesOnlyItsOwnTableOut() {
        SchemaModel model = SchemaModel.restore(Map.of("shop", "CREATE TABLE a (id INT PRIMARY KEY);\n"
                + "CREATE TABLE b (id INT PRIMARY KEY) NOT ANY SQL AT ALL;\n"
                + "CREATE TABLE c (id INT PRIMARY KEY, note VARCHAR(8));\n"));

        assertThat(model.tableNames()).containsEntry("shop", List.of("a", "c"));
        assertThat(model.table("shop", "c").orElseThrow().columnCount()).isEqualTo(2);
    }

    @Test
    void anAtomicCreateTableAsSelectIsReadAsTheTableItCreates() {
        // MySQL 8.0.21+ logs CREATE TABLE ... SELECT as the table's definition followed by START TRANSACTION
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE `t2` (\n  `a` int NOT NULL,\n  `b` varchar(10) DEFAULT NULL\n) START TRANSACTION");

        assertThat(columns(model, "t2")).containsExactly("a int", "b varchar(10)");
    }

    @Test
    void invisibleColumnsAreColumnsOfTheRowImageWhereverTheyAreDeclared() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (id INT PRIMARY KEY, secret VARCHAR(10) INVISIBLE, c INT NOT NULL "
                + "INVISIBLE DEFAULT 3)");
        model.apply("shop", "ALTER TABLE t ADD COLUMN h INT INVISIBLE FIRST, ALGORITHM=INSTANT");
        model.apply("shop", "ALTER TABLE t MODIFY secret VARCHAR(20) VISIBLE, CHANGE c cc BIGINT INVISIBLE AFTER h");
        model.apply("shop", "ALTER TABLE t ALTER COLUMN h SET VISIBLE");

        assertThat(columns(model, "t")).containsExactly("h INT", "cc BIGINT", "id INT", "secret VARCHAR(20)");
    }

    @Test
    void showCreateTableOfMysql9ReadsWithItsExecutableComments() {
        SchemaModel model = new SchemaModel();
        model.replace("shop", "v", "CREATE TABLE `v` (\n  `id` int NOT NULL,\n  `p` point NOT NULL /*!80003 SRID 4326 */,"
                + "\n  `i` int DEFAULT NULL /*!80023 INVISIBLE */,\n  `y` int NOT SECONDARY DEFAULT NULL,\n  PRIMARY KEY (`id`),"
                + "\n  SPATIAL KEY `p` (`p`)\n) /*!50100 TABLESPACE `innodb_system` */ ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 "
                + "COLLATE=utf8mb4_0900_ai_ci /*!80023 AUTOEXTEND_SIZE=4194304 */");

        assertThat(columns(model, "v")).containsExactly("id int", "p point", "i int", "y int");
    }

    @Test
    void checkConstraintsChangeNoColumnEvenWhenOneIsNamedLikeThem() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (id INT, v INT, chk INT, CONSTRAINT chk_v CHECK (v > 0), "
                + "CHECK (id <> 0) NOT ENFORCED)");
        model.apply("shop", "ALTER TABLE t ADD CONSTRAINT chk CHECK (v < 100), ADD CHECK (chk >= 0)");
        model.apply("shop", "ALTER TABLE t ALTER CHECK chk NOT ENFORCED");
        model.apply("shop", "ALTER TABLE t ALTER CONSTRAINT chk_v ENFORCED");
        model.apply("shop", "ALTER TABLE t DROP CHECK chk");
        model.apply("shop", "ALTER TABLE t DROP CONSTRAINT chk_v");

        assertThat(columns(model, "t")).containsExactly("id INT", "v INT", "chk INT");
    }

    @Test
    void functionalKeyPartsAddNoColumn() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (id INT PRIMARY KEY, j JSON, name VARCHAR(20), "
                + "INDEX idx_f ((CAST(j->'$.a' AS UNSIGNED))), KEY k2 ((UPPER(name)) DESC, id))");
        model.apply("shop", "CREATE INDEX ix ON t ((ABS(id)))");
        model.apply("shop", "ALTER TABLE t ADD INDEX ix2 ((id + 1)), ADD INDEX mv ((CAST(j->'$.tags' AS CHAR(9) ARRAY)))");

        assertThat(columns(model, "t")).containsExactly("id INT", "j JSON", "name VARCHAR(20)");
    }

    @Test
    void aColumnAddedInAnExecutableCommentIsAdded() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (id INT)");
        model.apply("shop", "ALTER TABLE t ADD a INT /*!, ADD b VARCHAR(3) */");

        assertThat(columns(model, "t")).containsExactly("id INT", "a INT", "b VARCHAR(3)");
    }

    @Test
    void mariadbCreateOrReplaceAndAddIfNotExistsHaveTheirEffect() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (id INT, old INT)");
        model.apply("shop", "CREATE OR REPLACE TABLE t (id INT, b BLOB COMPRESSED, KEY k (id) IGNORED)");
        model.apply("shop", "ALTER TABLE t ADD COLUMN IF NOT EXISTS b INT, ADD COLUMN IF NOT EXISTS c INET6");

        assertThat(columns(model, "t")).containsExactly("id INT", "b BLOB", "c INET6");
    }

    @Test
    void aLegacyTypeSynonymStaysUnreadable() {
        // LONG VARBINARY (MEDIUMBLOB) is the schema history's example of a statement it leaves to its fallback
        SchemaModel model = new SchemaModel();
        model.apply("shop", "CREATE TABLE t (id INT)");

        assertThatThrownBy(() -> model.apply("shop", "ALTER TABLE t ADD COLUMN c LONG VARBINARY"))
                .isInstanceOf(ParserException.class);
        assertThat(columns(model, "t")).containsExactly("id INT");
    }

    /** A model with each statement applied in turn, in schema {@code shop}. */
    private static SchemaModel appliedInTurn(String... statements) {
        SchemaModel model = new SchemaModel();
        for (String statement : statements) {
            model.apply("shop", statement);
        }
        return model;
    }

    private static List<String> columns(SchemaModel model, String table) {
        return model.table("shop", table).orElseThrow().columns().stream()
                .map(c -> c.name() + " " + c.mysqlType()).toList();
    }
}
