package dev.canal.testsupport;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

/** Testcontainers MySQL 8, used when a Docker engine answers. */
final class ContainerDatabase {

    private ContainerDatabase() {
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @SuppressWarnings("resource") // stopped by Testcontainers' own reaper at JVM exit
    static MySqlServer start() {
        MySQLContainer mysql = new MySQLContainer("mysql:8.4")
                .withUsername("test").withPassword("test")
                .withCommand("--log-bin=mysql-bin", "--server-id=1", "--binlog-format=ROW",
                        "--binlog-row-image=FULL", "--binlog-row-metadata=FULL");
        mysql.start();
        return TestDatabases.prepare(mysql.getHost(), mysql.getMappedPort(3306), "root", "test",
                "Testcontainers " + mysql.getDockerImageName());
    }
}
