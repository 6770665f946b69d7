package dev.canal.deployer;

import dev.canal.deployer.admin.AdminConfig;
import dev.canal.instance.spring.InstanceMetaConfig;
import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.server.metrics.PrometheusExporter;
import dev.canal.server.netty.ServerConfig;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.StoreConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every configuration key of Canal 1.1.x (canal-compat.md 7.2, 7.3) and whether this server implements it, with
 * the default it takes when absent (null where Canal has none). Keys we do not implement, and keys Canal does
 * not know, are named in the one start-up warning rather than silently ignored.
 */
final class KnownKeys {

    enum Support { IMPLEMENTED, NOT_IMPLEMENTED, UNKNOWN }

    /** Implemented keys and their defaults when absent. */
    static final Map<String, String> IMPLEMENTED = new LinkedHashMap<>();

    /** Canal keys read by nothing here yet. */
    static final List<String> NOT_IMPLEMENTED = List.of(
            "canal.instance.detecting.heartbeatHaEnable",
            "canal.instance.filter.druid.ddl", "canal.socketChannel", "canal.instance.multi.stream.on",
            "canal.instance.enableDruid", "canal.instance.pwdPublicKey",
            // the schema history keeps its own files (docs/compatibility.md): no database to log in to
            "canal.instance.tsdb.url", "canal.instance.tsdb.dbUsername", "canal.instance.tsdb.dbPassword",
            "canal.instance.tsdb.spring.xml");

    /** Every {@code kafka.X} key is a Kafka producer setting (canal-connector-kafka's KafkaProducerConfig). */
    static final String KAFKA_PREFIX = "kafka.";

    /**
     * Families of Canal keys not implemented: MQ settings other than those below (RocketMQ, RabbitMQ, Pulsar,
     * Aliyun), the other producers, the standby source.
     */
    static final List<String> NOT_IMPLEMENTED_PREFIXES = List.of(
            "canal.mq.", "rocketmq.", "rabbitmq.", "pulsarmq.", "canal.aliyun.", "canal.instance.rds.",
            "canal.instance.standby.");

    /** {@code canal.instance.{destination}.lazy / .spring.xml / .mode / .manager.address}. */
    private static final Pattern PER_DESTINATION =
            Pattern.compile("canal\\.instance\\.[^.]+\\.(lazy|spring\\.xml|mode|manager\\.address)");

    static {
        // the -Dcanal.conf file itself and the name Canal gives each instance's XML
        IMPLEMENTED.put("canal.conf", "classpath:canal.properties");
        IMPLEMENTED.put("canal.instance.destination", null);
        // server (CanalServerConfig)
        IMPLEMENTED.put("canal.ip", "");
        IMPLEMENTED.put("canal.port", "11111");
        IMPLEMENTED.put("canal.user", "");
        IMPLEMENTED.put("canal.passwd", "");
        // ours, Canal has none (docs/compatibility.md): the client port's authentication deadline and connection cap
        IMPLEMENTED.put(ServerConfig.AUTH_TIMEOUT_KEY, String.valueOf(ServerConfig.DEFAULT_AUTH_TIMEOUT_MILLIS));
        IMPLEMENTED.put(ServerConfig.MAX_CONNECTIONS_KEY, String.valueOf(ServerConfig.DEFAULT_MAX_CONNECTIONS));
        // canal-admin (AdminConfig; docs/admin.md)
        IMPLEMENTED.put(AdminConfig.MANAGER, "");
        IMPLEMENTED.put(AdminConfig.PORT, null); // absent: no admin port
        IMPLEMENTED.put(AdminConfig.USER, AdminConfig.DEFAULT_USER);
        IMPLEMENTED.put(AdminConfig.PASSWD, "");
        IMPLEMENTED.put(AdminConfig.REGISTER_AUTO, "false");
        IMPLEMENTED.put(AdminConfig.REGISTER_CLUSTER, "");
        IMPLEMENTED.put(AdminConfig.REGISTER_NAME, ""); // the host name
        IMPLEMENTED.put(AdminConfig.LOG_DIR, AdminConfig.DEFAULT_LOG_DIR); // ours, Canal has none
        IMPLEMENTED.put(AdminConfig.GLOBAL_MANAGER_ADDRESS, "${" + AdminConfig.MANAGER + "}"); // only that value
        IMPLEMENTED.put("canal.zkServers", "");
        IMPLEMENTED.put(CanalServerConfig.REGISTER_IP, "");
        IMPLEMENTED.put(InstanceMetaConfig.ZK_FLUSH_PERIOD, "1000");
        IMPLEMENTED.put("canal.withoutNetty", "false");
        IMPLEMENTED.put("canal.serverMode", "tcp");
        IMPLEMENTED.put(CanalServerConfig.METRICS_PORT, String.valueOf(PrometheusExporter.DEFAULT_PORT));
        IMPLEMENTED.put(InstanceMetaConfig.FILE_DATA_DIR, InstanceMetaConfig.DEFAULT_FILE_DATA_DIR);
        IMPLEMENTED.put(InstanceMetaConfig.FILE_FLUSH_PERIOD, "1000");
        IMPLEMENTED.put("canal.destinations", "");
        IMPLEMENTED.put("canal.destinations.expr", null);
        IMPLEMENTED.put("canal.conf.dir", "../conf");
        IMPLEMENTED.put("canal.auto.scan", "false");
        IMPLEMENTED.put("canal.auto.scan.interval", "5");
        IMPLEMENTED.put("canal.instance.global.mode", "spring");
        IMPLEMENTED.put("canal.instance.global.lazy", "false");
        IMPLEMENTED.put("canal.instance.global.spring.xml", "classpath:spring/file-instance.xml");
        // MQ mode (canal-connector-kafka's MqConfig; canal-compat.md 8), read in kafka mode only
        IMPLEMENTED.put("canal.mq.topic", "");
        IMPLEMENTED.put("canal.mq.dynamicTopic", "");
        IMPLEMENTED.put("canal.mq.partition", "0");
        IMPLEMENTED.put("canal.mq.partitionsNum", "1");
        IMPLEMENTED.put("canal.mq.partitionHash", "");
        IMPLEMENTED.put("canal.mq.dynamicTopicPartitionNum", "");
        IMPLEMENTED.put(CanalServerConfig.MQ_FLAT_MESSAGE, "true");
        IMPLEMENTED.put("canal.mq.canalBatchSize", "50");
        IMPLEMENTED.put("canal.mq.canalGetTimeout", "100");
        IMPLEMENTED.put("canal.mq.database.hash", "true");
        IMPLEMENTED.put("canal.mq.send.thread.size", "30");
        IMPLEMENTED.put("canal.mq.build.thread.size", "8");
        // Canal 1.1.4's names of producer settings, read when the kafka.X name is absent (KafkaProducerConfig)
        for (String legacy : List.of("servers", "acks", "compressionType", "retries", "batchSize", "lingerMs",
                "maxRequestSize", "bufferMemory")) {
            IMPLEMENTED.put("canal.mq." + legacy, null);
        }
        // store (StoreConfig)
        IMPLEMENTED.put(StoreConfig.BUFFER_SIZE_KEY, "16384");
        IMPLEMENTED.put(StoreConfig.BUFFER_MEM_UNIT_KEY, "1024");
        IMPLEMENTED.put(StoreConfig.BATCH_MODE_KEY, "MEMSIZE");
        IMPLEMENTED.put(StoreConfig.RAW_ENTRY_KEY, "true");
        IMPLEMENTED.put(StoreConfig.DDL_ISOLATION_KEY, "false");
        // parser (MysqlParserConfig)
        IMPLEMENTED.put(MysqlParserConfig.MASTER_ADDRESS, null);
        IMPLEMENTED.put(MysqlParserConfig.MASTER_JOURNAL, null);
        IMPLEMENTED.put(MysqlParserConfig.MASTER_POSITION, null);
        IMPLEMENTED.put(MysqlParserConfig.MASTER_TIMESTAMP, null);
        IMPLEMENTED.put(MysqlParserConfig.MASTER_GTID, null);
        IMPLEMENTED.put(MysqlParserConfig.DB_USERNAME, "retl");
        IMPLEMENTED.put(MysqlParserConfig.DB_PASSWORD, "retl");
        IMPLEMENTED.put(MysqlParserConfig.DEFAULT_DATABASE, "");
        IMPLEMENTED.put(MysqlParserConfig.CONNECTION_CHARSET, "UTF-8");
        IMPLEMENTED.put(MysqlParserConfig.SLAVE_ID, "0");
        IMPLEMENTED.put(MysqlParserConfig.GTID_ON, "false");
        // the parser's NetworkOptions
        IMPLEMENTED.put("canal.instance.network.receiveBufferSize", "16384");
        IMPLEMENTED.put("canal.instance.network.sendBufferSize", "16384");
        IMPLEMENTED.put("canal.instance.network.soTimeout", "30");
        // the parser's SslOptions for the master (canal-compat.md 7.3)
        IMPLEMENTED.put("canal.instance.master.sslMode", "DISABLED");
        IMPLEMENTED.put("canal.instance.master.tlsVersions", "TLSv1.2,TLSv1.3");
        for (String store : List.of("trustCertificateKeyStore", "clientCertificateKeyStore")) {
            for (String part : List.of("Url", "Type", "Password")) {
                IMPLEMENTED.put("canal.instance.master." + store + part, part.equals("Type") ? "JKS" : null);
            }
        }
        IMPLEMENTED.put(MysqlParserConfig.DETECTING_ENABLE, "false");
        IMPLEMENTED.put(MysqlParserConfig.DETECTING_SQL, null);
        IMPLEMENTED.put(MysqlParserConfig.DETECTING_INTERVAL, "5");
        IMPLEMENTED.put(MysqlParserConfig.DETECTING_RETRY, "3");
        IMPLEMENTED.put(MysqlParserConfig.TRANSACTION_SIZE, "1024");
        IMPLEMENTED.put(MysqlParserConfig.FALLBACK_INTERVAL, "60");
        IMPLEMENTED.put(MysqlParserConfig.PARALLEL, "true");
        IMPLEMENTED.put(MysqlParserConfig.PARALLEL_THREADS, null); // 60% of the processors
        IMPLEMENTED.put(MysqlParserConfig.PARALLEL_BUFFER, "256");
        IMPLEMENTED.put(MysqlParserConfig.BINLOG_FORMAT, "");
        IMPLEMENTED.put(MysqlParserConfig.BINLOG_IMAGE, "");
        IMPLEMENTED.put(MysqlParserConfig.AUTO_RESET_LATEST, "false");
        // the parser's schema history (TsdbConfig; canal-compat.md 9.4)
        IMPLEMENTED.put(TsdbConfig.ENABLE, "true");
        IMPLEMENTED.put(TsdbConfig.DIR, null); // ${canal.file.data.dir:../conf}/{destination}
        IMPLEMENTED.put(TsdbConfig.SNAPSHOT_INTERVAL, "24");
        IMPLEMENTED.put(TsdbConfig.SNAPSHOT_EXPIRE, "360");
        // sink filters (SinkFilterConfig; canal-compat.md 4.3, 7.5, 7.6)
        IMPLEMENTED.put(SinkFilterConfig.TABLE_REGEX_KEY, SinkFilterConfig.DEFAULT_TABLE_REGEX);
        IMPLEMENTED.put(SinkFilterConfig.TABLE_BLACK_REGEX_KEY, "");
        IMPLEMENTED.put(SinkFilterConfig.FIELD_KEY, "");
        IMPLEMENTED.put(SinkFilterConfig.BLACK_FIELD_KEY, "");
        for (String key : List.of(SinkFilterConfig.QUERY_DCL_KEY, SinkFilterConfig.QUERY_DML_KEY,
                SinkFilterConfig.QUERY_DDL_KEY, SinkFilterConfig.TABLE_ERROR_KEY, SinkFilterConfig.ROWS_KEY,
                SinkFilterConfig.TRANSACTION_ENTRY_KEY, SinkFilterConfig.DML_INSERT_KEY,
                SinkFilterConfig.DML_UPDATE_KEY, SinkFilterConfig.DML_DELETE_KEY)) {
            IMPLEMENTED.put(key, "false");
        }
    }

    private KnownKeys() {
    }

    static Support classify(String key) {
        if (IMPLEMENTED.containsKey(key) || key.startsWith(KAFKA_PREFIX)) {
            return Support.IMPLEMENTED;
        }
        if (NOT_IMPLEMENTED.contains(key) || NOT_IMPLEMENTED_PREFIXES.stream().anyMatch(key::startsWith)) {
            return Support.NOT_IMPLEMENTED;
        }
        if (PER_DESTINATION.matcher(key).matches()) {
            return key.endsWith(".manager.address") ? Support.NOT_IMPLEMENTED : Support.IMPLEMENTED;
        }
        return Support.UNKNOWN;
    }
}
