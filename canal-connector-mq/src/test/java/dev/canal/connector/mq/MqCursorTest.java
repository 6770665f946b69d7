package dev.canal.connector.mq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MqCursorTest {

    private static final LogPosition POSITION = new LogPosition(LogIdentity.of("127.0.0.1", 3306),
            new EntryPosition("mysql-bin.000003", 4711L, 1L, 1_700_000_000_000L, "", false));

    @Test
    void cursorSurvivesItsRecordWithPositionSkipAndToken() {
        MqCursor cursor = MqCursor.at(POSITION, 17);

        MqCursor read = MqCursor.parse(cursor.toBytes(), "here");

        assertThat(read).isEqualTo(cursor);
    }

    @Test
    void cursorWithoutPositionSurvivesItsRecord() {
        MqCursor cursor = MqCursor.at(null, 0);

        assertThat(MqCursor.parse(cursor.toBytes(), "here")).isEqualTo(cursor);
    }

    @Test
    void renewedCursorStandsAtTheSamePlaceUnderAnotherToken() {
        MqCursor cursor = MqCursor.at(POSITION, 3);

        MqCursor renewed = cursor.renewed();

        assertThat(renewed.position()).isEqualTo(POSITION);
        assertThat(renewed.skip()).isEqualTo(3);
        assertThat(renewed.token()).isNotEqualTo(cursor.token());
    }

    @Test
    void recordThatIsNotACursorIsRefusedNamingWhereItWas() {
        for (String bad : new String[] {"", "[]", "{\"skip\":1}", "{\"token\":\"a b\",\"skip\":0}",
                "{\"token\":\"t\",\"skip\":-1}", "{\"token\":\"t\",\"skip\":\"x\"}",
                "{\"token\":\"t\",\"skip\":0,\"position\":{\"postion\":{\"position\":\"nan\"}}}"}) {
            assertThatThrownBy(() -> MqCursor.parse(bad.getBytes(StandardCharsets.UTF_8), "topic-0@12"))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("topic-0@12: ");
        }
    }

    @Test
    void oversizedRecordIsRefusedBeforeItIsParsed() {
        byte[] big = new byte[MqCursor.MAX_BYTES + 1];

        assertThatThrownBy(() -> MqCursor.parse(big, "topic-0@12")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than " + MqCursor.MAX_BYTES);
    }
}
