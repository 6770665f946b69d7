package dev.canal.instance.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.parse.meta.history.TsdbConfig.HistoryDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FailoverHistoryWarningTest {

    @Test
    void aLocalHistorySaysWhatAServerTakingOverLacksAndHowToShareIt() {
        assertThat(FailoverHistoryWarning.message("orders", new TsdbConfig(true, Path.of("/data/orders"), 24, 360)))
                .hasValueSatisfying(m -> assertThat(m).contains("destination orders", "/data/orders",
                        "takes this destination over", "acked cursor", "latest DDL", "binlog_row_metadata=FULL",
                        "canal.instance.tsdb.url"));
    }

    @Test
    void aSharedHistoryOrNoHistoryNeedsNoWarning() {
        HistoryDatabase shared = new HistoryDatabase("jdbc:mysql://db/canal_tsdb", "canal", "canal");
        assertThat(FailoverHistoryWarning.message("orders", new TsdbConfig(true, Path.of("x"), 24, 360, shared)))
                .isEmpty();
        assertThat(FailoverHistoryWarning.message("orders", new TsdbConfig(false, Path.of("x"), 24, 360))).isEmpty();
    }
}
