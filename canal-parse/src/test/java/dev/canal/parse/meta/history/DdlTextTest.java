package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DdlTextTest {

    @Test
    void executableCommentsBecomeTheirTextWhateverTheirVersion() {
        assertThat(squeezed(DdlText.executable("ALTER TABLE t ADD a INT /*!, ADD b INT */")))
                .isEqualTo("ALTER TABLE t ADD a INT, ADD b INT");
        assertThat(squeezed(DdlText.executable("CREATE TABLE t (s INT /*!80023 INVISIBLE */) /*M!100301 PAGE_CHECKSUM=1*/")))
                .isEqualTo("CREATE TABLE t (s INT INVISIBLE) PAGE_CHECKSUM=1");
    }

    @Test
    void commentsAndQuotedTextThatLookExecutableStayAsTheyAre() {
        String sql = "ALTER TABLE t ADD a VARCHAR(9) DEFAULT 'it''s /*!, ADD b INT */' COMMENT \"/*!x*/\" /* plain */";
        assertThat(DdlText.executable(sql)).isEqualTo(sql);
    }

    @Test
    void columnAttributesThatChangeNoColumnAreLeftOut() {
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead(
                "CREATE TABLE t (id INT, s VARCHAR(3) NOT NULL INVISIBLE, p POINT NOT NULL SRID 4326, y INT NOT SECONDARY)")))
                .isEqualTo("CREATE TABLE t (id INT, s VARCHAR(3) NOT NULL, p POINT NOT NULL, y INT)");
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead("ALTER TABLE t CHANGE c d BIGINT VISIBLE FIRST")))
                .isEqualTo("ALTER TABLE t CHANGE c d BIGINT FIRST");
    }

    @Test
    void columnsNamedLikeTheAttributesKeepTheirNames() {
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead(
                "CREATE TABLE t (invisible INT, visible INT INVISIBLE, compressed INT, srid INT, ignored INT)")))
                .isEqualTo("CREATE TABLE t (invisible INT, visible INT, compressed INT, srid INT, ignored INT)");
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead("ALTER TABLE t CHANGE COLUMN a invisible INT INVISIBLE")))
                .isEqualTo("ALTER TABLE t CHANGE COLUMN a invisible INT");
        assertThat(DdlText.withoutClausesDruidCannotRead("ALTER TABLE t ALTER COLUMN c SET INVISIBLE"))
                .isEqualTo("ALTER TABLE t ALTER COLUMN c SET INVISIBLE");
    }

    @Test
    void tableOptionsDruidRejectsAreLeftOutWithTheirValuesAndListCommas() {
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead(
                "ALTER TABLE t ADD c INT, TABLESPACE = innodb_system, AUTOEXTEND_SIZE=4M")))
                .isEqualTo("ALTER TABLE t ADD c INT");
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead("ALTER TABLE t AUTOEXTEND_SIZE=4M, ADD c INT")))
                .isEqualTo("ALTER TABLE t ADD c INT");
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead(
                "CREATE TABLE t (id INT) ENGINE=InnoDB SECONDARY_ENGINE rapid PAGE_COMPRESSED=1 ROW_FORMAT=COMPRESSED")))
                .isEqualTo("CREATE TABLE t (id INT) ENGINE=InnoDB ROW_FORMAT=COMPRESSED");
    }

    @Test
    void mariadbClausesWithTheSameEffectInDruidAreRewritten() {
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead("CREATE OR REPLACE TABLE t (b BLOB COMPRESSED)")))
                .isEqualTo("CREATE TABLE t (b BLOB)");
        assertThat(squeezed(DdlText.withoutClausesDruidCannotRead(
                "ALTER TABLE t ADD COLUMN IF NOT EXISTS c INT, ADD INDEX i (c) NOT IGNORED, ADD KEY k (d) IGNORED")))
                .isEqualTo("ALTER TABLE t ADD COLUMN c INT, ADD INDEX i (c), ADD KEY k (d)");
        assertThat(DdlText.withoutClausesDruidCannotRead("CREATE OR REPLACE VIEW v AS SELECT 1"))
                .isEqualTo("CREATE OR REPLACE VIEW v AS SELECT 1");
    }

    /** Runs of spaces as one: what is left out leaves its spaces behind, which do not matter to a parser. */
    private static String squeezed(String sql) {
        return sql.replaceAll("\\s+", " ").replace(" )", ")").replace(" ,", ",").strip();
    }
}
