package dev.canal.instance.spring;

import dev.canal.parse.meta.history.TsdbConfig;
import java.util.Properties;

/**
 * The schema history's default per instance flavour, as in Canal (docs/compatibility.md, "Schema history per
 * flavour"): file-instance.xml and default-instance.xml keep it on unless {@code canal.instance.tsdb.enable} says
 * otherwise; memory-instance.xml and group-instance.xml keep it off unless the key turns it on.
 */
public final class SchemaHistoryFlavour {

    private SchemaHistoryFlavour() {
    }

    /** {@code merged} with {@code canal.instance.tsdb.enable=false} when the key is not set. */
    public static Properties offUnlessSet(Properties merged) {
        Properties own = new Properties();
        own.putAll(merged);
        if (merged.getProperty(TsdbConfig.ENABLE.name()) == null) {
            own.setProperty(TsdbConfig.ENABLE.name(), "false");
        }
        return own;
    }
}
