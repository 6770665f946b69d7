package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.TypedProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TsdbConfigTest {

    @Test
    void defaultsAreCanals() {
        TsdbConfig config = TsdbConfig.fromProperties(new TypedProperties(new Properties()), "example");
        assertThat(config.enable()).isTrue();
        assertThat(config.dir()).isEqualTo(Path.of("../conf/example"));
        assertThat(config.snapshotInterval()).isEqualTo(Duration.ofHours(24));
        assertThat(config.snapshotExpiry()).isEqualTo(Duration.ofHours(360));
    }

    @Test
    void keysOverrideDefaultsAndTheDirFollowsTheDataDir() {
        Properties p = new Properties();
        p.setProperty("canal.file.data.dir", "/data");
        p.setProperty("canal.instance.tsdb.enable", "false");
        p.setProperty("canal.instance.tsdb.snapshot.interval", "0");
        p.setProperty("canal.instance.tsdb.snapshot.expire", "48");
        TsdbConfig config = TsdbConfig.fromProperties(new TypedProperties(p), "d1");
        assertThat(config.enable()).isFalse();
        assertThat(config.dir()).isEqualTo(Path.of("/data/d1"));
        assertThat(config.snapshotInterval()).as("0 disables snapshots").isNull();
        assertThat(config.snapshotExpiry()).isEqualTo(Duration.ofHours(48));

        p.setProperty("canal.instance.tsdb.dir", "/elsewhere");
        assertThat(TsdbConfig.fromProperties(new TypedProperties(p), "d1").dir()).isEqualTo(Path.of("/elsewhere"));
    }

    @Test
    void aNegativeIntervalFailsNamingTheKey() {
        Properties p = new Properties();
        p.setProperty("canal.instance.tsdb.snapshot.interval", "-1");
        assertThatThrownBy(() -> TsdbConfig.fromProperties(new TypedProperties(p), "d1"))
                .hasMessageContaining("canal.instance.tsdb.snapshot.interval");
    }
}
