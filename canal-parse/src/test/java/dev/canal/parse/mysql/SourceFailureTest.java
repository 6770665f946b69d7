package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.net.MysqlServerException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class SourceFailureTest {

    private static final String SOURCE = "10.0.0.5:3306";

    @Test
    void aWrongPasswordIsLastingAndSaysWhichKeysAndGrantsToCheck() {
        SourceFailure failure = SourceFailure.of(new MysqlServerException(1045, "28000",
                "Access denied for user 'canal'@'10.0.0.9' (using password: YES)", "login"), SOURCE, "canal");

        assertThat(failure.permanent()).isTrue();
        assertThat(failure.reason()).isEqualTo("Access denied for user 'canal'@'10.0.0.9' (using password: YES)");
        assertThat(failure.remedy()).contains("canal.instance.dbPassword",
                "GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'canal'@'%'");
    }

    @Test
    void aMissingGrantIsLastingAndNamesTheGrant() {
        SourceFailure failure = SourceFailure.of(new MysqlServerException(1227, "42000", "Access denied; you need "
                + "(at least one of) the REPLICATION SLAVE privilege(s) for this operation", "dump"), SOURCE, "cdc");

        assertThat(failure.permanent()).isTrue();
        assertThat(failure.remedy()).contains("TO 'cdc'@'%'", SOURCE);
    }

    @Test
    void anUnknownHostFoundAmongTheCausesIsLasting() {
        SourceFailure failure = SourceFailure.of(new IOException("cannot connect to db7:3306",
                new UnknownHostException("db7")), "db7:3306", "canal");

        assertThat(failure.reason()).isEqualTo("unknown host db7");
        assertThat(failure.remedy()).contains("canal.instance.master.address");
    }

    @Test
    void aRefusedConnectionIsPassingAndNamedByItsInnermostCause() {
        SourceFailure failure = SourceFailure.of(new IOException("cannot connect to " + SOURCE + " as 'canal'",
                new ConnectException("Connection refused")), SOURCE, "canal");

        assertThat(failure.permanent()).isFalse();
        assertThat(failure.reason()).isEqualTo("Connection refused");
    }

    @Test
    void aPurgedBinlogIsNotMistakenForALoginProblem() {
        SourceFailure failure = SourceFailure.of(new MysqlServerException(1236, "HY000",
                "Could not find first log file name in binary log index file", "dump"), SOURCE, "canal");

        assertThat(failure.permanent()).isFalse();
        assertThat(failure.reason()).isEqualTo("dump: server error 1236 (HY000): Could not find first log file name "
                + "in binary log index file");
    }
}
