package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HandoverNoteTest {

    private static final String A = "10.0.0.1:11111";
    private static final String B = "10.0.0.2:11111";
    private static final String C = "10.0.0.3:11111";

    @Test
    void aNoteReadsBackAsWritten() {
        HandoverNote note = new HandoverNote(4_294_967_302L, A);

        assertThat(HandoverNote.fromJson(note.toJson())).contains(note);
        assertThat(new String(note.toJson(), StandardCharsets.UTF_8))
                .isEqualTo("{\"from\":\"10.0.0.1:11111\",\"node\":4294967302}");
    }

    @Test
    void aNoteInvitesAnyServerButItsWriterAndOnlyForTheNodeItNames() {
        HandoverNote note = new HandoverNote(42, A);

        assertThat(note.invites(B, 42)).isTrue();
        assertThat(note.invites(C, 42)).isTrue();
        assertThat(note.invites(A, 42)).as("not its writer").isFalse();
        assertThat(note.invites(C, 43)).as("a later node").isFalse();
        assertThat(new HandoverNote(0, A).invites(C, 0)).as("a server that saw no node").isFalse();
    }

    @Test
    void aNoteNamingAServerInvitesThatOneAlone() {
        HandoverNote note = new HandoverNote(42, A, C);

        assertThat(HandoverNote.fromJson(note.toJson())).contains(note);
        assertThat(new String(note.toJson(), StandardCharsets.UTF_8))
                .isEqualTo("{\"from\":\"10.0.0.1:11111\",\"to\":\"10.0.0.3:11111\",\"node\":42}");
        assertThat(note.invites(C, 42)).isTrue();
        assertThat(note.invites(B, 42)).as("another standby waits its delay").isFalse();
        assertThat(note.invites(C, 43)).as("a later node").isFalse();
    }

    @Test
    void dataThatIsNoNoteOfOursIsNoNote() {
        assertThat(HandoverNote.fromJson(null)).isEmpty();
        assertThat(HandoverNote.fromJson(bytes("{\"from\":\"" + A + "\"}"))).as("no node").isEmpty();
        assertThat(HandoverNote.fromJson(bytes("{\"node\":1}"))).as("no writer").isEmpty();
        assertThat(HandoverNote.fromJson(bytes("{\"from\":\"" + A + "\",\"node\":99999999999999999999}")))
                .as("node out of range").isEmpty();
        assertThat(HandoverNote.fromJson(bytes("{\"from\":\"" + A + "\",\"node\":1,\"pad\":\"" + "x".repeat(2000)
                + "\"}"))).as("too long").isEmpty();
        assertThat(HandoverNote.fromJson(bytes("not json"))).isEmpty();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
