package dev.canal.binlog.gtid;

import java.util.Collection;
import java.util.Collections;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A MariaDB GTID position ({@code 0-1-100,1-2-5}): the last GTID per replication domain, as given to
 * {@code @slave_connect_state}. Printed in domain order. Mutable, not thread-safe.
 */
public final class MariadbGtidList {

    private final TreeMap<Long, MariadbGtid> byDomain = new TreeMap<>();

    public MariadbGtidList() {
    }

    /** Parses the text form; blank is the empty list; a domain named twice is an error. */
    public static MariadbGtidList parse(String text) {
        MariadbGtidList list = new MariadbGtidList();
        if (text == null || text.isBlank()) {
            return list;
        }
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            MariadbGtid gtid = MariadbGtid.parse(part);
            if (list.byDomain.putIfAbsent(gtid.domainId(), gtid) != null) {
                throw new IllegalArgumentException("domain " + gtid.domainId() + " appears twice in '" + text + "'");
            }
        }
        return list;
    }

    /** Records {@code gtid} as the latest of its domain. */
    public void update(MariadbGtid gtid) {
        byDomain.put(gtid.domainId(), gtid);
    }

    public MariadbGtid get(long domainId) {
        return byDomain.get(domainId);
    }

    public Collection<MariadbGtid> gtids() {
        return Collections.unmodifiableCollection(byDomain.values());
    }

    public boolean isEmpty() {
        return byDomain.isEmpty();
    }

    public MariadbGtidList copy() {
        MariadbGtidList c = new MariadbGtidList();
        c.byDomain.putAll(byDomain);
        return c;
    }

    @Override
    public String toString() {
        return byDomain.values().stream().map(MariadbGtid::toString).collect(Collectors.joining(","));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MariadbGtidList other && byDomain.equals(other.byDomain);
    }

    @Override
    public int hashCode() {
        return byDomain.hashCode();
    }
}
