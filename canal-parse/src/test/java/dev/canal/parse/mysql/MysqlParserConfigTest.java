package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.ConfigValueException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class MysqlParserConfigTest {

    private static Properties instance() {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", "127.0.0.1:3306");
        return p;
    }

    @Test
    void theRingsByteBoundIsA32ndOfTheHeapUnlessConfigured() {
        assertThat(MysqlParserConfig.fromProperties(instance()).parallelBufferBytes())
                .isEqualTo(Runtime.getRuntime().maxMemory() / 32);

        Properties configured = instance();
        configured.setProperty("canal.instance.parser.parallelBufferBytes", "0");
        assertThat(MysqlParserConfig.fromProperties(configured).parallelBufferBytes()).isZero();
    }

    @Test
    void aNegativeByteBoundStopsStartUpNamingTheKey() {
        Properties configured = instance();
        configured.setProperty("canal.instance.parser.parallelBufferBytes", "-1");

        assertThatThrownBy(() -> MysqlParserConfig.fromProperties(configured))
                .isInstanceOf(ConfigValueException.class)
                .hasMessageContaining("canal.instance.parser.parallelBufferBytes");
    }
}
