package dev.canal.instance.spring;

import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.protocol.config.CommonKeys;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;

/**
 * The parser settings of one member of a group instance (docs/configuration.md): group-instance.xml names the
 * sources {@code canal.instance.master1.*} / {@code standby1.*}, {@code master2.*} / {@code standby2.*}, ...;
 * member {@code n} sees them as the single-source keys {@code canal.instance.master.*} / {@code standby.*}, with
 * every other key unchanged. The schema history is off unless {@code canal.instance.tsdb.enable} turns it on, as
 * in Canal's group flavour; when on, member {@code n} keeps its own in {@code <canal.instance.tsdb.dir>/master<n>},
 * so the two parsers never write one history.
 */
public final class GroupMemberProperties {

    private static final String PREFIX = "canal.instance.";

    public static final List<ConfigKey> KEYS = List.of(
            ConfigKey.canal("canal.instance.master{n}.*", null,
                    "In group-instance.xml, the source of member n (1, 2, ...): every canal.instance.master.* key "
                            + "with the member's number after master."),
            ConfigKey.canal("canal.instance.standby{n}.*", null,
                    "In group-instance.xml, the standby source of member n: every canal.instance.standby.* key with "
                            + "the member's number after standby."));

    private GroupMemberProperties() {
    }

    /** @throws IllegalArgumentException naming {@code canal.instance.master{n}.address} when it is missing */
    public static Properties of(Properties merged, int member) {
        new TypedProperties(merged).required(PREFIX + "master" + member + ".address");
        Properties own = new Properties();
        merged.stringPropertyNames().stream()
                .filter(key -> !key.startsWith(PREFIX + "master.") && !key.startsWith(PREFIX + "standby."))
                .forEach(key -> own.setProperty(key, merged.getProperty(key)));
        for (String role : new String[] {"master", "standby"}) {
            String memberPrefix = PREFIX + role + member + ".";
            merged.stringPropertyNames().stream().filter(key -> key.startsWith(memberPrefix)).forEach(key ->
                    own.setProperty(PREFIX + role + "." + key.substring(memberPrefix.length()), merged.getProperty(key)));
        }
        TypedProperties typed = new TypedProperties(merged);
        own.setProperty(TsdbConfig.DIR.name(), TsdbConfig.fromProperties(typed,
                typed.string(CommonKeys.DESTINATION.name(), ""))
                .dir().resolve("master" + member).toString());
        return SchemaHistoryFlavour.offUnlessSet(own);
    }
}
