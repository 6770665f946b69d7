package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqModes;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ServerModeTest {

    /**
     * Every server lists the modes to read canal.serverMode; a broker's client must load only in its mode. (A mode
     * class may log: the logging library loads.)
     */
    @Test
    void listingTheModesLoadsNoBrokerClient() throws Exception {
        ModeListing.Result listing = ModeListing.listModes();

        assertThat(listing.modes()).hasToString(MqModes.names().toString()).isNotEmpty();
        assertThat(listing.loadedClasses()).contains(MqMode.class.getName())
                .allMatch(name -> name.startsWith("dev.canal.") || name.startsWith("org.slf4j.")
                        || name.startsWith("ch.qos.logback."), "our classes and logging only");
    }

    @Test
    void eachModeIsFoundByItsNameInAnyCase() {
        for (MqMode mode : MqModes.installed()) {
            assertThat(ServerMode.parse(mode.name().toUpperCase(Locale.ROOT)).name()).isEqualTo(mode.name());
        }
    }
}
