package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.deployer.admin.AdminConfig;
import dev.canal.instance.spring.InstanceMetaConfig;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.StoreConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * conf/canal.properties, conf/canal_local.properties and conf/example/instance.properties list keys the typed config classes know, with the
 * defaults those classes use (conventions.md "Configuration"). Where Canal ships a value other than the default
 * it applies when the key is absent, the shipped value is kept and listed here with the reason.
 */
class ShippedConfigurationTest {

    private static final Path CONF = Path.of("..", "conf");

    /** Canal's shipped value differs from its absent-key default (canal-compat.md 7.2, 7.3). */
    private static final Map<String, String> SHIPPED_NOT_DEFAULT = Map.ofEntries(
            Map.entry("canal.file.data.dir", "${canal.conf.dir}"), // resolves to ../conf, the default
            Map.entry("canal.destinations", "example"),
            Map.entry("canal.auto.scan", "true"),
            Map.entry("canal.instance.detecting.sql", "select 1"),
            Map.entry("canal.instance.detecting.interval.time", "3"),
            Map.entry("canal.instance.binlog.format", "ROW,STATEMENT,MIXED"),
            Map.entry("canal.instance.binlog.image", "FULL,MINIMAL,NOBLOB"),
            Map.entry("canal.instance.master.address", "127.0.0.1:3306"),
            Map.entry("canal.instance.dbUsername", "canal"),
            Map.entry("canal.instance.dbPassword", "canal"),
            Map.entry("canal.instance.filter.black.regex", "mysql\\.slave_.*"),
            // canal_local.properties: the manager mode it exists for
            Map.entry("canal.admin.manager", "127.0.0.1:8089"),
            Map.entry("canal.admin.port", "11110"),
            Map.entry("canal.admin.register.auto", "true"));

    private static Properties load(String file) throws IOException {
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(CONF.resolve(file), StandardCharsets.UTF_8)) {
            p.load(reader);
        }
        return p;
    }

    private static Map<String, String> shipped() throws IOException {
        Map<String, String> keys = new TreeMap<>();
        for (String file : new String[] {"canal.properties", "canal_local.properties", "example/instance.properties"}) {
            Properties p = load(file);
            p.stringPropertyNames().forEach(k -> keys.put(k, p.getProperty(k).trim()));
        }
        return keys;
    }

    @Test
    void everyShippedKeyIsImplemented() throws IOException {
        assertThat(shipped().keySet())
                .allSatisfy(key -> assertThat(KnownKeys.classify(key)).as(key).isEqualTo(KnownKeys.Support.IMPLEMENTED));
    }

    @Test
    void everyShippedValueIsTheDefaultOrAKnownCanalDifference() throws IOException {
        shipped().forEach((key, value) -> {
            if (value.isEmpty()) {
                return; // blank counts as absent (canal-compat.md 7.1)
            }
            String expected = SHIPPED_NOT_DEFAULT.getOrDefault(key, KnownKeys.IMPLEMENTED.get(key));
            assertThat(value).as(key).isEqualTo(expected);
        });
    }

    @Test
    void theTypedClassesUseTheDefaultsTheKeyTableStates() {
        Properties none = new Properties();
        StoreConfig store = StoreConfig.fromProperties(none);
        assertThat(String.valueOf(store.bufferSize())).isEqualTo(KnownKeys.IMPLEMENTED.get(StoreConfig.BUFFER_SIZE_KEY));
        assertThat(String.valueOf(store.bufferMemUnit())).isEqualTo(KnownKeys.IMPLEMENTED.get(StoreConfig.BUFFER_MEM_UNIT_KEY));
        assertThat(store.batchMode().name()).isEqualTo(KnownKeys.IMPLEMENTED.get(StoreConfig.BATCH_MODE_KEY));
        assertThat(String.valueOf(store.raw())).isEqualTo(KnownKeys.IMPLEMENTED.get(StoreConfig.RAW_ENTRY_KEY));
        assertThat(String.valueOf(store.ddlIsolation())).isEqualTo(KnownKeys.IMPLEMENTED.get(StoreConfig.DDL_ISOLATION_KEY));

        Properties address = new Properties();
        address.setProperty(MysqlParserConfig.MASTER_ADDRESS, "127.0.0.1:3306");
        MysqlParserConfig parser = MysqlParserConfig.fromProperties(address);
        Map<String, Object> parserDefaults = Map.ofEntries(
                Map.entry(MysqlParserConfig.DB_USERNAME, parser.username()),
                Map.entry(MysqlParserConfig.DB_PASSWORD, parser.password()),
                Map.entry(MysqlParserConfig.DEFAULT_DATABASE, parser.defaultDatabaseName()),
                Map.entry(MysqlParserConfig.CONNECTION_CHARSET, parser.connectionCharset()),
                Map.entry(MysqlParserConfig.SLAVE_ID, parser.slaveId()),
                Map.entry(MysqlParserConfig.GTID_ON, parser.gtidMode()),
                Map.entry(MysqlParserConfig.DETECTING_ENABLE, parser.detectingEnable()),
                Map.entry(MysqlParserConfig.DETECTING_INTERVAL, parser.detectingIntervalSeconds()),
                Map.entry(MysqlParserConfig.DETECTING_RETRY, parser.detectingRetryThreshold()),
                Map.entry(MysqlParserConfig.TRANSACTION_SIZE, parser.transactionSize()),
                Map.entry(MysqlParserConfig.FALLBACK_INTERVAL, parser.fallbackIntervalSeconds()),
                Map.entry(MysqlParserConfig.PARALLEL, parser.parallel()),
                Map.entry(MysqlParserConfig.PARALLEL_BUFFER, parser.parallelBufferSize()),
                Map.entry(MysqlParserConfig.AUTO_RESET_LATEST, parser.autoResetLatestPosMode()));
        parserDefaults.forEach((key, value) ->
                assertThat(String.valueOf(value)).as(key).isEqualTo(KnownKeys.IMPLEMENTED.get(key)));

        SinkFilterConfig filters = SinkFilterConfig.fromProperties(none);
        Map<String, Object> filterDefaults = Map.of(
                SinkFilterConfig.QUERY_DCL_KEY, filters.filterQueryDcl(),
                SinkFilterConfig.QUERY_DML_KEY, filters.filterQueryDml(),
                SinkFilterConfig.QUERY_DDL_KEY, filters.filterQueryDdl(),
                SinkFilterConfig.TABLE_ERROR_KEY, filters.filterTableError(),
                SinkFilterConfig.ROWS_KEY, filters.filterRows(),
                SinkFilterConfig.TRANSACTION_ENTRY_KEY, filters.filterTransactionEntry(),
                SinkFilterConfig.DML_INSERT_KEY, filters.filterDmlInsert(),
                SinkFilterConfig.DML_UPDATE_KEY, filters.filterDmlUpdate(),
                SinkFilterConfig.DML_DELETE_KEY, filters.filterDmlDelete());
        filterDefaults.forEach((key, value) ->
                assertThat(String.valueOf(value)).as(key).isEqualTo(KnownKeys.IMPLEMENTED.get(key)));

        InstanceMetaConfig meta = InstanceMetaConfig.fromProperties(none);
        assertThat(meta.fileDataDir().toString()).isEqualTo(KnownKeys.IMPLEMENTED.get(InstanceMetaConfig.FILE_DATA_DIR));
        assertThat(String.valueOf(meta.fileFlushPeriodMillis())).isEqualTo(KnownKeys.IMPLEMENTED.get(InstanceMetaConfig.FILE_FLUSH_PERIOD));
        assertThat(String.valueOf(meta.zooKeeperFlushPeriodMillis())).isEqualTo(KnownKeys.IMPLEMENTED.get(InstanceMetaConfig.ZK_FLUSH_PERIOD));

        AdminConfig admin = AdminConfig.fromProperties(none);
        assertThat(admin.manager()).isEqualTo(KnownKeys.IMPLEMENTED.get(AdminConfig.MANAGER));
        assertThat(admin.port()).isEqualTo(AdminConfig.NO_PORT);
        assertThat(admin.credentials().user()).isEqualTo(KnownKeys.IMPLEMENTED.get(AdminConfig.USER));
        assertThat(admin.credentials().passwordHash()).isEqualTo(KnownKeys.IMPLEMENTED.get(AdminConfig.PASSWD));
        assertThat(String.valueOf(admin.registerAuto())).isEqualTo(KnownKeys.IMPLEMENTED.get(AdminConfig.REGISTER_AUTO));
        assertThat(admin.logDir().toString()).isEqualTo(KnownKeys.IMPLEMENTED.get(AdminConfig.LOG_DIR));

        CanalServerConfig server = CanalServerConfig.load(CanalServerConfigTest.source());
        assertThat(String.valueOf(server.tcp().port())).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.port"));
        assertThat(String.valueOf(server.autoScan())).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.auto.scan"));
        assertThat(String.valueOf(server.autoScanIntervalSeconds())).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.auto.scan.interval"));
        assertThat(server.confDir().toString()).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.conf.dir"));
        assertThat(server.globalSpringXml()).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.instance.global.spring.xml"));
        assertThat(String.valueOf(server.globalLazy())).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.instance.global.lazy"));
        assertThat(String.valueOf(server.withoutNetty())).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.withoutNetty"));
        assertThat(server.serverMode().name().toLowerCase()).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.serverMode"));
        assertThat(String.valueOf(server.metricsPort())).isEqualTo(KnownKeys.IMPLEMENTED.get("canal.metrics.pull.port"));
    }
}
