package dev.canal.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class ReferenceConfigTest {

    private static Properties minimal() {
        Properties p = new Properties();
        p.setProperty("canal.port", "11111");
        p.setProperty("canal.destinations", "a, b");
        for (String d : new String[] {"a", "b"}) {
            p.setProperty(d + ".master.address", "127.0.0.1:3306");
            p.setProperty(d + ".dbUsername", "canal");
        }
        return p;
    }

    @Test
    void readsOneInstancePerDestinationWithTheDeployersDefaults() {
        Properties p = minimal();
        p.setProperty("a.master.journal.name", "mysql-bin.000003");
        p.setProperty("a.master.position", "4");
        p.setProperty("a.master.timestamp", "1700000000000");

        ReferenceConfig config = ReferenceConfig.from(p);

        assertThat(config.port()).isEqualTo(11111);
        assertThat(config.instances()).extracting(ReferenceConfig.Instance::destination).containsExactly("a", "b");
        ReferenceConfig.Instance a = config.instances().get(0);
        assertThat(a.address().getPort()).isEqualTo(3306);
        assertThat(a.journalName()).isEqualTo("mysql-bin.000003");
        assertThat(a.position()).isEqualTo(4L);
        assertThat(a.timestamp()).isEqualTo(1_700_000_000_000L);
        assertThat(a.memoryBufferSize()).isEqualTo(16_384);
        assertThat(a.tsdb()).isTrue();
        assertThat(a.parallel()).isTrue();
        assertThat(config.instances().get(1).journalName()).isNull();
    }

    @Test
    void readsTheBlackListAndTheFieldFiltersWhenGiven() {
        Properties p = minimal();
        p.setProperty("a.filter.black.regex", "db\\.skip.*");
        p.setProperty("a.filter.field", " db.t:id/name ");
        p.setProperty("a.filter.black.field", "db.t2:secret");

        ReferenceConfig config = ReferenceConfig.from(p);

        ReferenceConfig.Instance a = config.instances().get(0);
        assertThat(a.filterBlackRegex()).isEqualTo("db\\.skip.*");
        assertThat(a.fieldFilter()).isEqualTo("db.t:id/name");
        assertThat(a.fieldBlackFilter()).isEqualTo("db.t2:secret");
        ReferenceConfig.Instance b = config.instances().get(1);
        assertThat(b.filterBlackRegex()).isNull();
        assertThat(b.fieldFilter()).isNull();
        assertThat(b.fieldBlackFilter()).isNull();
    }

    @Test
    void readsTheFilterSwitchesGtidStartAndMetaDirectoryPerDestination() {
        Properties p = minimal();
        for (String key : new String[] {"filter.query.dml", "filter.query.ddl", "filter.query.dcl",
                "filter.dml.insert", "filter.dml.update", "filter.dml.delete", "filter.rows",
                "filter.transaction.entry", "filter.table.error", "get.ddl.isolation", "gtidon"}) {
            p.setProperty("a." + key, "true");
        }
        p.setProperty("a.master.gtid", "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
        p.setProperty("a.meta.dir", "/tmp/meta");

        ReferenceConfig config = ReferenceConfig.from(p);

        assertThat(config.instances().get(0).switches()).isEqualTo(new ReferenceConfig.Switches(true, true, true,
                true, true, true, true, true, true, true, true));
        assertThat(config.instances().get(0).gtidStart()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
        assertThat(config.instances().get(0).metaDir()).isEqualTo("/tmp/meta");
        assertThat(config.instances().get(1).switches()).isEqualTo(new ReferenceConfig.Switches(false, false, false,
                false, false, false, false, false, false, false, false));
        assertThat(config.instances().get(1).metaDir()).isNull();
    }

    @Test
    void aSwitchThatIsNeitherTrueNorFalseIsRejected() {
        Properties p = minimal();
        p.setProperty("b.filter.rows", "yes");

        assertThatThrownBy(() -> ReferenceConfig.from(p)).hasMessageContaining("b.filter.rows must be true or false");
    }

    @Test
    void aJournalWithoutAPositionIsRejected() {
        Properties p = minimal();
        p.setProperty("a.master.journal.name", "mysql-bin.000003");

        assertThatThrownBy(() -> ReferenceConfig.from(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a.master.journal.name and a.master.position together");
    }

    @Test
    void aStoreSizeThatIsNotAPowerOfTwoIsRejected() {
        Properties p = minimal();
        p.setProperty("b.memory.buffer.size", "1000");

        assertThatThrownBy(() -> ReferenceConfig.from(p)).hasMessageContaining("b.memory.buffer.size");
    }

    @Test
    void aMissingSourceIsNamed() {
        Properties p = minimal();
        p.remove("b.master.address");

        assertThatThrownBy(() -> ReferenceConfig.from(p)).hasMessage("missing b.master.address");
    }
}
