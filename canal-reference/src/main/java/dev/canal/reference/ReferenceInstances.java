package dev.canal.reference;

import com.alibaba.otter.canal.instance.core.CanalInstance;
import com.alibaba.otter.canal.instance.core.CanalInstanceGenerator;
import com.alibaba.otter.canal.instance.manager.CanalInstanceWithManager;
import com.alibaba.otter.canal.instance.manager.model.Canal;
import com.alibaba.otter.canal.instance.manager.model.CanalParameter;
import com.alibaba.otter.canal.parse.inbound.mysql.MysqlEventParser;
import com.alibaba.otter.canal.protocol.position.EntryPosition;
import com.alibaba.otter.canal.sink.entry.EntryEventSink;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Builds one Canal 1.1.7 {@link CanalInstanceWithManager} per destination, set up as the deployer's
 * {@code canal.properties} defaults and {@code file-instance.xml} would (memory store of 16384 slots, MEMSIZE
 * batches, raw entries, parallel parser, detection off, log positions in memory with the meta manager as
 * fallback) with the instance keys of {@link ReferenceConfig.Switches}, except that client cursors stay in memory
 * unless a meta directory is given, and the TSDB tables live in memory too.
 */
final class ReferenceInstances implements CanalInstanceGenerator {

    private final Map<String, ReferenceConfig.Instance> byDestination;

    ReferenceInstances(ReferenceConfig config) {
        this.byDestination = config.instances().stream()
                .collect(Collectors.toMap(ReferenceConfig.Instance::destination, Function.identity()));
    }

    @Override
    public CanalInstance generate(String destination) {
        ReferenceConfig.Instance config = byDestination.get(destination);
        if (config == null) {
            throw new IllegalArgumentException("no destination " + destination + " (configured: "
                    + byDestination.keySet() + ")");
        }
        Canal canal = new Canal();
        canal.setId(1L);
        canal.setName(destination);
        canal.setCanalParameter(parameters(config));
        CanalInstanceWithManager instance = new CanalInstanceWithManager(canal, config.filterRegex());
        MysqlEventParser mysqlParser = (MysqlEventParser) instance.getEventParser();
        // file-instance.xml sets these on the parser from canal.instance.filter.field / filter.black.field
        if (config.fieldFilter() != null) {
            mysqlParser.setFieldFilter(config.fieldFilter());
        }
        if (config.fieldBlackFilter() != null) {
            mysqlParser.setFieldBlackFilter(config.fieldBlackFilter());
        }
        ReferenceConfig.Switches switches = config.switches();
        mysqlParser.setFilterQueryDml(switches.filterQueryDml());
        mysqlParser.setFilterQueryDdl(switches.filterQueryDdl());
        mysqlParser.setFilterQueryDcl(switches.filterQueryDcl());
        mysqlParser.setFilterDmlInsert(switches.filterDmlInsert());
        mysqlParser.setFilterDmlUpdate(switches.filterDmlUpdate());
        mysqlParser.setFilterDmlDelete(switches.filterDmlDelete());
        mysqlParser.setFilterRows(switches.filterRows());
        ((EntryEventSink) instance.getEventSink()).setFilterTransactionEntry(switches.filterTransactionEntry());
        if (config.gtidStart() != null) {
            // the manager's model has no field for a start GTID set; file-instance.xml gives canal.instance.master.gtid
            EntryPosition start = new EntryPosition(config.journalName(), config.position(), config.timestamp());
            start.setGtid(config.gtidStart());
            mysqlParser.setMasterPosition(start);
        }
        if (config.tsdb()) {
            // the manager's own TSDB needs the deployer's Spring and MyBatis files; this one is Canal's
            // DatabaseTableMeta over in-memory tables
            MysqlEventParser parser = (MysqlEventParser) instance.getEventParser();
            parser.setTableMetaTSDBFactory(new MemoryTableMetaTSDBFactory());
            // the parser copies these into system properties before it builds the TSDB: none may be null
            parser.setTsdbJdbcUrl("memory");
            parser.setTsdbJdbcUserName("");
            parser.setTsdbJdbcPassword("");
            parser.setEnableTsdb(true);
        }
        return instance;
    }

    private static CanalParameter parameters(ReferenceConfig.Instance config) {
        CanalParameter p = new CanalParameter();
        if (config.metaDir() != null) {
            // file-instance.xml's FileMixedMetaManager: cursors in <dir>/<destination>/meta.dat, flushed every second
            p.setMetaMode(CanalParameter.MetaMode.LOCAL_FILE);
            p.setDataDir(config.metaDir());
            p.setMetaFileFlushPeriod(1000);
        } else {
            p.setMetaMode(CanalParameter.MetaMode.MEMORY);
        }
        p.setIndexMode(CanalParameter.IndexMode.MEMORY_META_FAILBACK);
        p.setStorageMode(CanalParameter.StorageMode.MEMORY);
        p.setMemoryStorageBufferSize(config.memoryBufferSize());
        p.setSourcingType(CanalParameter.SourcingType.MYSQL);
        p.setMasterAddress(config.address());
        p.setDbUsername(config.username());
        p.setDbPassword(config.password());
        p.setSlaveId(config.slaveId());
        p.setDetectingEnable(false);
        p.setParallel(config.parallel());
        p.setTsdbEnable(false); // set on the parser instead, see generate
        p.setFilterTableError(config.switches().filterTableError());
        p.setDdlIsolation(config.switches().ddlIsolation());
        p.setGtidEnable(config.switches().gtid());
        if (config.filterBlackRegex() != null) {
            p.setBlackFilter(config.filterBlackRegex());
        }
        if (config.journalName() != null) {
            p.setMasterLogfileName(config.journalName());
            p.setMasterLogfileOffest(config.position());
        }
        if (config.timestamp() != null) {
            p.setMasterTimestamp(config.timestamp());
        }
        return p;
    }
}
